import PetSpot
import Testing
@testable import PetSpotCLI

/// Setting fields from typed text, the same for flags and answers.
@Suite struct ReportFieldEditingTests {
    private static let today = LocalDate(year: 2025, month: 11, day: 18)!

    @Test(arguments: [
        (FormField.species, "dragon", AnswerError.unknownSpecies("dragon")),
        (.gender, "cow", .unknownGender("cow")),
        (.age, "3.5", .notAWholeNumber(.age, "3.5")),
        (.lastSeenDate, "18/11/2025", .notADate("18/11/2025")),
        (.lastSeenDate, "2025-02-29", .notADate("2025-02-29")),
        (.latitude, "north", .notANumber(.latitude, "north")),
        (.longitude, "nan", .notANumber(.longitude, "nan")),
    ])
    func textOfTheWrongKindIsRefused(field: FormField, text: String, error: AnswerError) {
        var draft = MissingReportDraft()
        #expect(throws: error) { try draft.set(field, to: text, today: Self.today) }
        #expect(draft == MissingReportDraft())
    }

    @Test func valuesThatBreakARuleAreKeptForValidationToReport() throws {
        var draft = FoundReportDraft()
        try draft.set(.age, to: "41", today: Self.today)
        try draft.set(.latitude, to: "-91", today: Self.today)
        try draft.set(.lastSeenDate, to: "2025-11-19", today: Self.today)
        try draft.set(.caregiverPhone, to: "123", today: Self.today)
        let messages = draft.validate(today: Self.today).map(\.message)
        #expect(messages.contains("Age must be between 0 and 40"))
        #expect(messages.contains("Latitude must be between -90 and 90"))
        #expect(messages.contains("The date cannot be in the future"))
        #expect(draft.caregiverPhone == "123")
    }

    @Test func emptyTextClearsAndWordsAreUnderstood() throws {
        var draft = MissingReportDraft()
        try draft.set(.lastSeenDate, to: "yesterday", today: LocalDate(year: 2025, month: 3, day: 1)!)
        #expect(draft.animal.lastSeenDate == LocalDate(year: 2025, month: 2, day: 28))
        try draft.set(.gender, to: "F", today: Self.today)
        #expect(draft.animal.gender == .female)
        try draft.set(.gender, to: "", today: Self.today)
        #expect(draft.animal.gender == nil)
    }

    @Test func textOverItsCapIsRefusedWithItsLengthLikeAChipNumber() throws {
        var draft = MissingReportDraft()
        #expect(throws: AnswerError.tooLong(.reward, count: 130)) {
            try draft.set(.reward, to: String(repeating: "x", count: 130), today: Self.today)
        }
        #expect(draft.contact.reward.isEmpty, "nothing cut to fit, nothing kept")
        #expect(try draft.set(.reward, to: String(repeating: "x", count: 120), today: Self.today) == nil)
        #expect(draft.contact.reward.count == 120)
        #expect(throws: AnswerError.self, "a chip number is refused, never cut to 15 digits") {
            try draft.set(.microchipNumber, to: "1234567890123456789", today: Self.today)
        }
        #expect(draft.microchip.isEmpty)
    }

    @Test func theRequiredFieldsAreReadOffTheRules() {
        #expect(MissingReportDraft.requiredFields
            == [.species, .breed, .gender, .lastSeenDate, .latitude, .longitude, .phone, .email])
        #expect(FoundReportDraft.requiredFields
            == [.photo, .species, .gender, .lastSeenDate, .latitude, .longitude, .phone, .email])
    }

    /// The pet's name is optional (`--name`), asked in the description step of both flows.
    @Test func everyFieldIsAskedOnExactlyOneStepOfItsFlow() {
        #expect(MissingReportDraft.allFields.count == Set(MissingReportDraft.allFields).count)
        #expect(FoundReportDraft.allFields.count == Set(FoundReportDraft.allFields).count)
        #expect(Set(FoundReportDraft.allFields) == Set(FormField.allCases))
        #expect(Set(MissingReportDraft.allFields) == Set(FormField.allCases).subtracting([.caregiverPhone, .foundAddress]))
        #expect(MissingReportDraft.step(of: .petName) == .description && FoundReportDraft.step(of: .petName) == .petDetails)
    }

    @Test func theNameIsSetByItsFlagAndSentTrimmed() throws {
        var draft = MissingReportDraft()
        try draft.set(.petName, to: "  Rex ", today: LocalDate(year: 2025, month: 11, day: 18)!)
        #expect(draft.animal.nameToSend == "Rex")
        #expect(throws: AnswerError.self) {
            try draft.set(.petName, to: String(repeating: "x", count: 101), today: LocalDate(year: 2025, month: 11, day: 18)!)
        }
        try draft.set(.petName, to: "", today: LocalDate(year: 2025, month: 11, day: 18)!)
        #expect(draft.animal.name == nil)
    }
}
