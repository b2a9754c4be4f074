import PetSpot
import Testing

@Suite struct TextLimitTests {
    @Test(arguments: [
        (TextLimit.reward, 120, "Reward must be at most 120 characters"),
        (.description, 500, "Description must be at most 500 characters"),
        (.foundAddress, 500, "Address must be at most 500 characters"),
    ])
    func capsAreTheSpecs(limit: TextLimit, maximum: Int, message: String) {
        #expect(limit.maximumCharacters == maximum)
        #expect(limit.validate(String(repeating: "x", count: maximum)) == nil)
        #expect(limit.validate(String(repeating: "x", count: maximum + 1))
            == ValidationIssue(field: limit.field, message: message))
        #expect(limit.truncating(String(repeating: "x", count: maximum + 7)).count == maximum)
    }

    @Test func countsCharactersNotBytes() {
        let emoji = String(repeating: "🐕", count: 120)
        #expect(TextLimit.reward.validate(emoji) == nil)
    }

    @Test func typingPastTheCapTruncates() {
        var contact = OwnerContactDetails()
        contact.reward = String(repeating: "r", count: 130)
        #expect(contact.reward.count == 120)

        var animal = AnimalDescriptionDetails()
        animal.description = String(repeating: "d", count: 600)
        #expect(animal.description.count == 500)

        var found = FoundReportDraft()
        found.foundAddress = String(repeating: "a", count: 501)
        #expect(found.foundAddress.count == 500)
    }

    @Test func constructingPastTheCapIsKeptButRefused() {
        let contact = OwnerContactDetails(
            phone: "1234567", email: "a@b.io", reward: String(repeating: "r", count: 121))
        #expect(contact.reward.count == 121)
        #expect(contact.validate() == [ValidationIssue(field: .reward, message: "Reward must be at most 120 characters")])

        let base = Fixtures.animal
        let animal = AnimalDescriptionDetails(
            species: base.species, breed: base.breed, gender: base.gender,
            lastSeenDate: base.lastSeenDate, latitude: base.latitude, longitude: base.longitude,
            description: String(repeating: "d", count: 501))
        #expect(animal.validate(today: Fixtures.today, breedRequired: true).map(\.field) == [.description])
    }
}
