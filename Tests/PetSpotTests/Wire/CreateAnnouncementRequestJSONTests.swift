import Foundation
import PetSpot
import Testing

@Suite struct CreateAnnouncementRequestJSONTests {
    static let example = CreateAnnouncementRequest(
        species: .dog, sex: .male, lastSeenDate: Fixtures.today,
        locationLatitude: 52.2297, locationLongitude: 21.0122,
        email: "owner@example.com", phone: "+48123456789", status: .missing,
        microchipNumber: "123456789012345", description: "Brown labrador, red collar",
        reward: "100 PLN")

    @Test func encodesTheContractExampleByteForByte() throws {
        #expect(try Self.example.jsonString() == Fixtures.missingRequestJSON)
    }

    /// The contract example plus our additions: the draft's breed and age are sent.
    @Test func aFinishedDraftProducesTheSameBytesWithBreedAndAge() throws {
        let request = try Fixtures.missingDraft.makeRequest(today: Fixtures.today)
        var expected = Self.example
        (expected.breed, expected.approximateAge) = ("Labrador", 4)
        #expect(request == expected)
        #expect(try request.jsonString() == #"{"approximate_age":4,"breed":"Labrador","# + Fixtures.missingRequestJSON.dropFirst())
    }

    @Test func nilOptionalsAreLeftOut() throws {
        var request = Self.example
        request.microchipNumber = nil
        request.description = nil
        request.reward = nil
        #expect(try request.jsonString() == #"{"email":"owner@example.com","last_seen_date":"2025-11-18","#
            + #""location_latitude":52.2297,"location_longitude":21.0122,"phone":"+48123456789","#
            + #""sex":"MALE","species":"DOG","status":"MISSING"}"#)
    }

    @Test func decodesWhatItEncodes() throws {
        let decoded = try PetSpotJSON.decode(
            CreateAnnouncementRequest.self, from: Data(Fixtures.missingRequestJSON.utf8))
        #expect(decoded == Self.example)
    }

    @Test(arguments: [
        #"{"species":"DRAGON","sex":"MALE","last_seen_date":"2025-11-18","location_latitude":1,"location_longitude":1,"email":"a@b.io","phone":"1234567","status":"MISSING"}"#,
        #"{"species":"DOG","sex":"MALE","last_seen_date":"2025-11-18T10:00:00Z","location_latitude":1,"location_longitude":1,"email":"a@b.io","phone":"1234567","status":"MISSING"}"#,
        #"{"species":"DOG","sex":"MALE","last_seen_date":"2025-11-18","location_latitude":1,"location_longitude":1,"email":"a@b.io","phone":"1234567","status":"ACTIVE"}"#,
        #"{"species":"DOG","sex":"MALE","last_seen_date":"2025-11-18","location_longitude":1,"email":"a@b.io","phone":"1234567","status":"MISSING"}"#,
    ])
    func refusesBodiesThatBreakTheShape(json: String) {
        #expect(throws: DecodingError.self) {
            try PetSpotJSON.decode(CreateAnnouncementRequest.self, from: Data(json.utf8))
        }
    }
}
