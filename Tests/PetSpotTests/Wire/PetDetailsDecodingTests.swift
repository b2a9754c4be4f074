import Foundation
import PetSpot
import Testing

@Suite struct PetDetailsDecodingTests {
    static let json = """
        {
          "id": "6F9619FF-8B86-D011-B42D-00C04FC964FF",
          "petName": "Rex",
          "photoUrl": "https://petspot.example/photos/rex.jpg",
          "status": "ACTIVE",
          "lastSeenDate": "2025-11-18",
          "species": "DOG",
          "gender": "MALE",
          "description": "Brown labrador, red collar",
          "location": {"latitude": 52.2297, "longitude": 21.0122},
          "phone": "+48123456789",
          "email": "owner@example.com",
          "breed": "Labrador",
          "locationRadius": 5,
          "createdAt": "2025-11-18T10:15:00Z",
          "updatedAt": "2025-11-19T08:00:00.250Z",
          "microchipNumber": "123456789012345"
        }
        """

    @Test func decodesTheCamelCaseShape() throws {
        let details = try PetSpotJSON.decode(PetDetails.self, from: Data(Self.json.utf8))
        #expect(details.id.rawValue == "6F9619FF-8B86-D011-B42D-00C04FC964FF")
        #expect(details.petName == "Rex")
        #expect(details.status == .active)
        #expect(details.lastSeenDate == Fixtures.today)
        #expect(details.species == .dog && details.gender == .male)
        #expect(details.location == PetLocation(latitude: 52.2297, longitude: 21.0122))
        #expect(details.locationRadius == 5)
        #expect(details.createdAt == Date(timeIntervalSince1970: 1_763_460_900))
        #expect(details.updatedAt == Date(timeIntervalSince1970: 1_763_539_200.25))
        #expect(details.microchipNumber == "123456789012345")
        #expect(details.reward == nil)
    }

    @Test func optionalValuesMayBeNullOrAbsent() throws {
        let json = """
            {"id": "6F9619FF-8B86-D011-B42D-00C04FC964FF", "petName": null, "photoUrl": null,
             "status": "CLOSED", "lastSeenDate": "2025-01-02", "species": "OTHER", "gender": "UNKNOWN",
             "location": {"latitude": -1.5, "longitude": 2}, "phone": "1234567", "email": "a@b.io",
             "createdAt": "2025-01-02T00:00:00Z", "updatedAt": "2025-01-02T00:00:00+01:00"}
            """
        let details = try PetSpotJSON.decode(PetDetails.self, from: Data(json.utf8))
        #expect(details.petName == nil && details.photoUrl == nil && details.breed == nil)
        #expect(details.description == nil && details.locationRadius == nil)
        #expect(details.gender == .unknown && details.status == .closed)
    }

    @Test func roundTripsThroughTheSharedCoders() throws {
        let details = try PetSpotJSON.decode(PetDetails.self, from: Data(Self.json.utf8))
        var whole = details
        whole.updatedAt = Date(timeIntervalSince1970: 1_763_539_200)
        let again = try PetSpotJSON.decode(PetDetails.self, from: PetSpotJSON.encode(whole))
        #expect(again == whole)
        #expect(try whole.jsonString().contains(#""location":{"latitude":52.2297,"longitude":21.0122}"#))
    }

    @Test(arguments: [#""status": "MISSING""#, #""createdAt": "yesterday""#])
    func refusesValuesOutsideTheContract(replacement: String) {
        let key = replacement.components(separatedBy: ":")[0]
        let broken = Self.json.components(separatedBy: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces).hasPrefix(key) ? replacement + "," : $0 }
            .joined(separator: "\n")
        #expect(throws: DecodingError.self) {
            try PetSpotJSON.decode(PetDetails.self, from: Data(broken.utf8))
        }
    }
}
