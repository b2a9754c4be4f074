import PetSpot
import Testing

@Suite struct RequestValidationTests {
    @Test func theContractExampleIsValid() {
        #expect(CreateAnnouncementRequestJSONTests.example.validate(today: Fixtures.today).isEmpty)
    }

    @Test func everyBrokenRuleIsReportedWithItsWireKey() {
        var request = CreateAnnouncementRequestJSONTests.example
        request.lastSeenDate = Fixtures.tomorrow
        request.locationLatitude = -90.0001
        request.locationLongitude = 180.0001
        request.email = "abc"
        request.phone = "123456"
        request.microchipNumber = "1234567890123456"
        request.description = String(repeating: "d", count: 501)
        request.reward = String(repeating: "r", count: 121)
        let issues = request.validate(today: Fixtures.today)
        #expect(issues.map(\.field.wireKey) == [
            "last_seen_date", "location_latitude", "location_longitude", "email", "phone",
            "microchip_number", "description", "reward",
        ])
        #expect(issues.map(\.message).contains("Microchip number must be at most 15 digits"))
    }

    @Test func aMicrochipWithLettersIsRefusedOnTheWire() {
        var request = CreateAnnouncementRequestJSONTests.example
        request.microchipNumber = "12345-6"
        #expect(request.validate(today: Fixtures.today)
            == [ValidationIssue(field: .microchipNumber, message: "Microchip number must contain digits only")])
    }

    @Test func unknownSexIsAllowedOnTheWire() {
        var request = CreateAnnouncementRequestJSONTests.example
        request.sex = .unknown
        #expect(request.validate(today: Fixtures.today).isEmpty)
    }
}
