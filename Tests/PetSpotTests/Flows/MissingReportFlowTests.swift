import Foundation
import PetSpot
import Testing

@Suite struct MissingReportFlowTests {
    @Test(arguments: [
        (MissingReportStep.chipNumber, "Step 1 of 4 · Chip number"),
        (.photo, "Step 2 of 4 · Photo"),
        (.description, "Step 3 of 4 · Description"),
        (.contact, "Step 4 of 4 · Contact details"),
    ])
    func stepsAreNumberedOutOfFour(step: MissingReportStep, label: String) {
        #expect(step.progressLabel == label)
        #expect(step.total == 4)
    }

    @Test func chipNumberAndPhotoStepsNeedNothing() {
        var draft = MissingReportDraft()
        let outcome1 = draft.advance(today: Fixtures.today)
        #expect(outcome1 == .moved(to: .photo))
        #expect(draft.photo == nil)
        let outcome2 = draft.advance(today: Fixtures.today)
        #expect(outcome2 == .moved(to: .description))
    }

    @Test func refusesToLeaveAnInvalidDescriptionStep() {
        var draft = MissingReportDraft(step: .description)
        #expect(!draft.canAdvance(today: Fixtures.today))
        let outcome = draft.advance(today: Fixtures.today)
        #expect(draft.step == .description)
        #expect(outcome.issues.map(\.field) == [.species, .breed, .gender, .lastSeenDate, .latitude, .longitude])

        draft.animal = Fixtures.animal
        let outcome3 = draft.advance(today: Fixtures.today)
        #expect(outcome3 == .moved(to: .contact))
    }

    @Test func refusesToLeaveAnInvalidContactStepThenIsReady() {
        var draft = Fixtures.missingDraft
        draft.contact.phone = "12 34 56"
        let outcome4 = draft.advance(today: Fixtures.today)
        #expect(outcome4
            == .blocked([ValidationIssue(field: .phone, message: "Enter at least 7 digits")]))
        draft.contact.phone = "1234567"
        let outcome5 = draft.advance(today: Fixtures.today)
        #expect(outcome5 == .readyToSubmit)
        #expect(draft.step == .contact)
    }

    @Test func theLastStepListsProblemsLeftOnEarlierSteps() {
        var draft = Fixtures.missingDraft
        draft.animal.latitude = nil
        let outcome6 = draft.advance(today: Fixtures.today)
        #expect(outcome6
            == .blocked([ValidationIssue(field: .latitude, message: "Fill in latitude")]))
    }

    @Test func goesBackOneStepAtATimeAndStopsAtTheFirst() {
        var draft = MissingReportDraft(step: .contact)
        let moves = (0..<4).map { _ in (draft.goBack(), draft.step) }
        #expect(moves.map(\.0) == [true, true, true, false])
        #expect(moves.map(\.1) == [.description, .photo, .chipNumber, .chipNumber])
    }

    @Test func aFutureLastSeenDateBlocksTheDescriptionStep() {
        var draft = MissingReportDraft(step: .description, animal: Fixtures.animal)
        draft.animal.lastSeenDate = Fixtures.tomorrow
        let outcome7 = draft.advance(today: Fixtures.today)
        #expect(outcome7.issues
            == [ValidationIssue(field: .lastSeenDate, message: "The date cannot be in the future")])
    }

    @Test func makesAMissingRequestOnlyWhenEveryStepIsValid() throws {
        let request = try Fixtures.missingDraft.makeRequest(today: Fixtures.today)
        #expect(request.status == .missing)
        #expect(request.microchipNumber == "123456789012345")
        #expect(request.phone == "+48123456789" && request.email == "owner@example.com")

        var draft = Fixtures.missingDraft
        draft.animal.breed = ""
        draft.contact.email = "abc"
        #expect(throws: ReportDraftError.incomplete([
            ValidationIssue(field: .breed, message: "Please enter the animal's breed/race"),
            ValidationIssue(field: .email, message: "Enter a valid email address"),
        ])) {
            try draft.makeRequest(today: Fixtures.today)
        }
    }

    @Test func todayIsReadInTheReportersTimeZone() throws {
        // 23:30 UTC on the 17th is already the 18th in Tokyo, so a date of the 18th is not in the future there.
        let instant = try #require(ISO8601DateFormatter().date(from: "2025-11-17T23:30:00Z"))
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        #expect(throws: Never.self) { try Fixtures.missingDraft.makeRequest(today: instant, timeZone: tokyo) }
        #expect(throws: ReportDraftError.self) { try Fixtures.missingDraft.makeRequest(today: instant, timeZone: .gmt) }
    }

    @Test func emptyChipDescriptionAndRewardAreLeftOutOfTheRequest() throws {
        var draft = Fixtures.missingDraft
        draft.microchip = MicrochipNumber("")
        draft.animal.description = "   "
        draft.contact.reward = ""
        let json = try draft.makeRequest(today: Fixtures.today).jsonString()
        #expect(!json.contains("microchip_number") && !json.contains("description") && !json.contains("reward"))
    }

    @Test func theErrorNamesEveryProblem() {
        let error = ReportDraftError.incomplete([ValidationIssue(field: .phone, message: "Enter at least 7 digits")])
        #expect(error.description
            == "The report cannot be sent yet because some fields are invalid (Phone: Enter at least 7 digits). "
            + "Correct them and submit again.")
    }

    @Test func survivesACodableRoundTrip() throws {
        var draft = Fixtures.missingDraft
        draft.step = .photo
        let data = try PetSpotJSON.encode(draft)
        #expect(try PetSpotJSON.decode(MissingReportDraft.self, from: data) == draft)
    }
}
