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
          "location": "52.2297, 21.0122",
          "locationLatitude": 52.2297,
          "locationLongitude": 21.0122,
          "approximateAge": "3",
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
        #expect(details.location == "52.2297, 21.0122")
        #expect(details.coordinates == PetLocation(latitude: 52.2297, longitude: 21.0122))
        #expect(details.approximateAge == "3" && details.ageInYears == 3)
        #expect(details.locationRadius == 5)
        #expect(details.createdAt == Date(timeIntervalSince1970: 1_763_460_900))
        #expect(details.updatedAt == Date(timeIntervalSince1970: 1_763_539_200.25))
        #expect(details.microchipNumber == "123456789012345")
        #expect(details.reward == nil)
    }

    @Test func optionalValuesMayBeNullOrAbsent() throws {
        let json = """
            {"id": "6F9619FF-8B86-D011-B42D-00C04FC964FF", "petName": "Other", "photoUrl": null,
             "status": "CLOSED", "lastSeenDate": "2025-01-02", "species": "OTHER", "gender": "UNKNOWN",
             "description": "", "location": "Location not given", "phone": "", "email": null,
             "createdAt": "2025-01-02T00:00:00Z", "updatedAt": "2025-01-02T00:00:00+01:00"}
            """
        let details = try PetSpotJSON.decode(PetDetails.self, from: Data(json.utf8))
        #expect(details.photoUrl == nil && details.breed == nil && details.email == nil && details.coordinates == nil)
        #expect(details.description == "" && details.locationRadius == nil && details.approximateAge == nil)
        #expect(details.gender == .unknown && details.status == .closed)
    }

    @Test func roundTripsThroughTheSharedCoders() throws {
        let details = try PetSpotJSON.decode(PetDetails.self, from: Data(Self.json.utf8))
        var whole = details
        whole.updatedAt = Date(timeIntervalSince1970: 1_763_539_200)
        let again = try PetSpotJSON.decode(PetDetails.self, from: PetSpotJSON.encode(whole))
        #expect(again == whole)
        let text = try whole.jsonString()
        #expect(text.contains(#""location":"52.2297, 21.0122""#) && text.contains(#""locationLatitude":52.2297"#))
        #expect(text.contains(#""approximateAge":"3""#))
    }

    /// The seeds' types: a `location` object or a numeric age is not what the app reads.
    @Test(arguments: [#""status": "MISSING""#, #""createdAt": "yesterday""#, #""location": {"latitude": 1, "longitude": 2}"#,
                      #""approximateAge": 3"#])
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
