import Foundation
import PetSpot
import Testing

@Suite struct ErrorBodyTests {
    @Test func encodesTheContractShapeWithItsField() throws {
        let body = APIErrorBody(issue: ValidationIssue(field: .latitude, message: "Latitude must be between -90 and 90"))
        #expect(try body.jsonString()
            == #"{"error":{"code":"validation_failed","field":"location_latitude","message":"Latitude must be between -90 and 90"}}"#)
    }

    @Test func writesANullFieldWhenAboutNoField() throws {
        let body = APIErrorBody(error: APIError(code: .notFound, message: "No announcement has that id."))
        #expect(try body.jsonString()
            == #"{"error":{"code":"not_found","field":null,"message":"No announcement has that id."}}"#)
    }

    @Test(arguments: [
        #"{"error":{"code":"unauthorized","message":"Wrong password.","field":null}}"#,
        #"{"error":{"code":"unauthorized","message":"Wrong password."}}"#,
    ])
    func decodesWithOrWithoutAField(json: String) throws {
        let body = try PetSpotJSON.decode(APIErrorBody.self, from: Data(json.utf8))
        #expect(body.error == APIError(code: .unauthorized, message: "Wrong password."))
    }
}

@Suite struct AnnouncementCredentialsTests {
    static let id = AnnouncementID(rawValue: "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")!

    @Test func writesBasicBase64OfIdColonPassword() {
        let credentials = AnnouncementCredentials(id: Self.id, managementPassword: "042917")
        let expected = Data("e621e1f8-c36c-495a-93fc-0c247a3e6e5f:042917".utf8).base64EncodedString()
        #expect(credentials.authorizationHeader == "Basic \(expected)")
        #expect(AnnouncementCredentials(authorizationHeader: credentials.authorizationHeader) == credentials)
    }

    @Test func readsTheIdExactlyAsSentWithACaseInsensitiveScheme() {
        let header = "basic " + Data("e621e1f8-c36c-495a-93fc-0c247a3e6e5f:123456".utf8).base64EncodedString()
        #expect(AnnouncementCredentials(authorizationHeader: header)
            == AnnouncementCredentials(id: Self.id, managementPassword: "123456"))
        let upper = "Basic " + Data("E621E1F8-C36C-495A-93FC-0C247A3E6E5F:123456".utf8).base64EncodedString()
        #expect(AnnouncementCredentials(authorizationHeader: upper)?.id.rawValue == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        #expect(AnnouncementCredentials(authorizationHeader: upper)?.id != Self.id)
    }

    @Test func thePasswordMayHoldAColonButTheIdMayNot() {
        let header = "Basic " + Data("abc:12:34".utf8).base64EncodedString()
        #expect(AnnouncementCredentials(authorizationHeader: header)?.id.rawValue == "abc")
        #expect(AnnouncementCredentials(authorizationHeader: header)?.managementPassword == "12:34")
    }

    @Test(arguments: ["", "Basic", "Bearer abc", "Basic !!!", "Basic " + Data(":123456".utf8).base64EncodedString(),
                      "Basic " + Data("a/b:123456".utf8).base64EncodedString(), "Basic " + Data("no-colon".utf8).base64EncodedString()])
    func refusesMalformedHeaders(header: String) {
        #expect(AnnouncementCredentials(authorizationHeader: header) == nil)
    }

    @Test(arguments: [("042917", true), ("12345", false), ("1234567", false), ("12a456", false)])
    func passwordsAreSixDigits(password: String, isWellFormed: Bool) {
        #expect(AnnouncementCredentials.isWellFormedPassword(password) == isWellFormed)
    }

    @Test func generatedPasswordsAreWellFormed() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            #expect(AnnouncementCredentials.isWellFormedPassword(AnnouncementCredentials.makePassword(using: &generator)))
        }
    }

    @Test func pathsFollowTheContract() {
        #expect(AnnouncementsAPI.collectionPath == "/api/v1/announcements")
        #expect(AnnouncementsAPI.photosPath(id: Self.id) == "/api/v1/announcements/e621e1f8-c36c-495a-93fc-0c247a3e6e5f/photos")
        let upper = AnnouncementID(rawValue: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        #expect(AnnouncementsAPI.announcementPath(id: upper) == "/api/v1/announcements/E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
    }

    @Test func randomIdsAreLowerCaseUUIDs() {
        let id = AnnouncementID.random()
        #expect(id.rawValue == id.rawValue.lowercased())
        #expect(UUID(uuidString: id.rawValue) != nil)
        #expect(AnnouncementID.random() != id)
    }
}
