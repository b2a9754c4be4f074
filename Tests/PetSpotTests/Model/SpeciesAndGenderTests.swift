import PetSpot
import Testing

@Suite struct SpeciesTests {
    @Test(arguments: [
        ("dog", Species.dog), ("DOG", .dog), ("  Cat ", .cat), ("bird", .bird),
        ("Rabbit", .rabbit), ("rOdEnT", .rodent), ("reptile\n", .reptile), ("other", .other),
    ])
    func parsesUserInputIgnoringCase(input: String, expected: Species) {
        #expect(Species(userInput: input) == expected)
    }

    @Test(arguments: ["", "  ", "dragon", "dogs", "d og"])
    func refusesUnknownSpecies(input: String) {
        #expect(Species(userInput: input) == nil)
    }

    @Test func wireSpellingsAreUpperCase() {
        #expect(Species.allCases.map(\.rawValue) == ["DOG", "CAT", "BIRD", "RABBIT", "RODENT", "REPTILE", "OTHER"])
    }
}

@Suite struct GenderTests {
    @Test(arguments: [(Gender.male, "♂"), (.female, "♀"), (.unknown, "?")])
    func showsItsSymbol(gender: Gender, symbol: String) {
        #expect(gender.symbol == symbol)
    }

    @Test(arguments: [("male", Gender.male), (" FEMALE ", .female), ("Unknown", .unknown)])
    func parsesUserInputIgnoringCase(input: String, expected: Gender) {
        #expect(Gender(userInput: input) == expected)
    }

    @Test func wireSpellingsAreTheContractsSex() {
        #expect(Gender.allCases.map(\.rawValue) == ["MALE", "FEMALE", "UNKNOWN"])
        #expect(Gender(userInput: "m") == nil)
    }
}

@Suite struct StatusTests {
    @Test(arguments: [(PetStatus.active, "MISSING"), (.found, "FOUND"), (.closed, "CLOSED")])
    func activeReadsMissing(status: PetStatus, label: String) {
        #expect(status.displayLabel == label)
    }

    @Test func announcementStatusesAreMissingAndFound() {
        #expect(AnnouncementStatus.allCases.map(\.rawValue) == ["MISSING", "FOUND"])
    }
}
