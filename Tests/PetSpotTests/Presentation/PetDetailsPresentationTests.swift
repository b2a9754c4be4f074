import Foundation
import PetSpot
import Testing

@Suite struct PetDetailsPresentationTests {
    static let details = PetDetails(
        id: .random(), petName: "Rex", status: .active, lastSeenDate: Fixtures.today,
        species: .dog, gender: .male, description: "Brown labrador",
        location: "52.2297, 21.0122",
        phone: "+48123456789", email: "owner@example.com", breed: "Labrador", locationRadius: 5,
        microchipNumber: "123456789012345", approximateAge: "3", reward: "100 PLN",
        createdAt: Date(timeIntervalSince1970: 1_763_460_900),
        updatedAt: Date(timeIntervalSince1970: 1_763_539_200),
        locationLatitude: 52.2297, locationLongitude: 21.0122)

    @Test func showsEveryFieldReadably() {
        let shown = PetDetailsPresentation(Self.details, timeZone: .gmt)
        #expect(shown.status == "MISSING")
        #expect(shown.name == "Rex")
        #expect(shown.species == "Dog")
        #expect(shown.gender == "♂")
        #expect(shown.lastSeenDate == "Nov 18, 2025")
        #expect(shown.radius == "±5 km")
        #expect(shown.location == "52.2297, 21.0122")
        #expect(shown.microchipNumber == "12345-67890-12345")
        #expect(shown.createdAt == "Nov 18, 2025" && shown.updatedAt == "Nov 19, 2025")
        #expect(shown.photoURL == "—")
        #expect(shown.age == "3 years")
    }

    @Test func missingValuesShowAnEmDash() {
        var details = Self.details
        details.petName = " "
        details.breed = "  "
        details.description = ""
        details.locationRadius = nil
        details.microchipNumber = ""
        details.reward = nil
        let shown = PetDetailsPresentation(details, timeZone: .gmt)
        #expect([shown.name, shown.breed, shown.description, shown.radius, shown.microchipNumber, shown.reward]
            == Array(repeating: "—", count: 6))
    }

    @Test(arguments: [(PetStatus.active, Gender.male, nil, "MISSING", "♂"), (.found, .female, nil, "FOUND", "♀"),
                      (.closed, .unknown, ClosedOutcome.withdrawn, "CLOSED", "?"), (.closed, .male, .reunited, "REUNITED", "♂")])
    func showsStatusAndGender(status: PetStatus, gender: Gender, outcome: ClosedOutcome?, statusText: String, genderText: String) {
        var details = Self.details
        details.status = status
        details.closedOutcome = outcome
        details.gender = gender
        let shown = PetDetailsPresentation(details, timeZone: .gmt)
        #expect(shown.status == statusText && shown.gender == genderText)
    }

    @Test(arguments: [
        ("2025-01-01", "Jan 1, 2025"), ("2024-02-29", "Feb 29, 2024"), ("2025-05-09", "May 9, 2025"),
        ("2025-09-30", "Sep 30, 2025"), ("2025-12-31", "Dec 31, 2025"),
    ])
    func datesReadTheSameInEveryLocale(text: String, shown: String) {
        #expect(LocalDate(text)?.displayString == shown)
    }

    @Test func instantsShowTheDayInTheGivenTimeZone() throws {
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        #expect(PetDetailsPresentation(Self.details, timeZone: tokyo).updatedAt == "Nov 19, 2025")
        let instant = Date(timeIntervalSince1970: 1_763_508_600) // 2025-11-18T23:30:00Z
        #expect(LocalDate.displayString(for: instant, in: tokyo) == "Nov 19, 2025")
        #expect(LocalDate.displayString(for: instant, in: .gmt) == "Nov 18, 2025")
    }
}

@Suite struct SubmissionMessageTests {
    @Test func messagesAreTheSpecs() {
        #expect(SubmissionMessage.offline == "No connection. Please check your network and try again.")
        #expect(SubmissionMessage.generic == "Something went wrong. Please try again later.")
    }
}
