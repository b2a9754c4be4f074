import PetSpot
import Testing

@Suite struct AnimalRuleTests {
    @Test(arguments: [-1, 41, 100, Int.min])
    func refusesAgesOutsideZeroToForty(age: Int) {
        #expect(FormRules.age(age) == ValidationIssue(field: .age, message: "Age must be between 0 and 40"))
    }

    @Test(arguments: [nil, 0, 1, 40] as [Int?])
    func acceptsNoAgeOrZeroToForty(age: Int?) {
        #expect(FormRules.age(age) == nil)
    }

    @Test(arguments: ["", "  ", "\n\t"])
    func breedMustNotBeBlank(breed: String) {
        #expect(FormRules.breed(breed)
            == ValidationIssue(field: .breed, message: "Please enter the animal's breed/race"))
    }

    @Test(arguments: ["Labrador", " mixed ", "abc"])
    func anyNonBlankBreedIsAccepted(breed: String) {
        #expect(FormRules.breed(breed) == nil)
    }

    @Test func speciesMustBeSelected() {
        #expect(FormRules.species(nil) == ValidationIssue(field: .species, message: "Please select a species"))
        #expect(FormRules.species(.other) == nil)
    }

    @Test(arguments: [(Gender.male, true), (.female, true), (.unknown, false)])
    func genderMustBeMaleOrFemale(gender: Gender, isValid: Bool) {
        #expect((FormRules.gender(gender) == nil) == isValid)
    }

    @Test func aFoundPetsSexMayBeUnknownButNotMissing() {
        #expect(FormRules.gender(.unknown, unknownAllowed: true) == nil)
        #expect(FormRules.gender(nil, unknownAllowed: true)?.message == "Please select the sex")
        var found = FoundReportDraft()
        found.animal.gender = .unknown
        #expect(!found.validate(step: .petDetails, today: LocalDate(year: 2025, month: 1, day: 1)!).contains { $0.field == .gender })
        var missing = MissingReportDraft()
        missing.animal.gender = .unknown
        #expect(missing.validate(step: .description, today: LocalDate(year: 2025, month: 1, day: 1)!).contains { $0.field == .gender })
    }

    @Test func missingGenderAsksToSelectOne() {
        #expect(FormRules.gender(nil) == ValidationIssue(field: .gender, message: "Please select the sex"))
    }
}

@Suite struct DateRuleTests {
    @Test func todayIsAccepted() {
        #expect(FormRules.lastSeenDate(Fixtures.today, today: Fixtures.today) == nil)
    }

    @Test func anEarlierDayIsAccepted() {
        #expect(FormRules.lastSeenDate(LocalDate("2019-01-01"), today: Fixtures.today) == nil)
    }

    @Test(arguments: ["2025-11-19", "2025-12-01", "2026-01-01"])
    func aFutureDateIsRefused(text: String) {
        #expect(FormRules.lastSeenDate(LocalDate(text), today: Fixtures.today)
            == ValidationIssue(field: .lastSeenDate, message: "The date cannot be in the future"))
    }

    @Test func aMissingDateIsRefused() {
        #expect(FormRules.lastSeenDate(nil, today: Fixtures.today)
            == ValidationIssue(field: .lastSeenDate, message: "Please select a date"))
    }
}
