import Foundation
import PetSpot
import Testing

@Suite struct AnnouncementResponseTests {
    static let json = #"{"description":"Brown labrador, red collar","email":"owner@example.com","#
        + #""id":"e621e1f8-c36c-495a-93fc-0c247a3e6e5f","last_seen_date":"2025-11-18","#
        + #""location_latitude":52.2297,"location_longitude":21.0122,"management_password":"042917","#
        + #""microchip_number":"123456789012345","phone":"+48123456789","photo_url":null,"#
        + #""reward":"100 PLN","sex":"MALE","species":"DOG","status":"MISSING"}"#

    static let response = AnnouncementResponse(
        announcement: CreateAnnouncementRequestJSONTests.example,
        id: AnnouncementID(rawValue: "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")!,
        managementPassword: "042917")

    @Test func decodesWithANullPhotoURL() throws {
        let decoded = try PetSpotJSON.decode(AnnouncementResponse.self, from: Data(Self.json.utf8))
        #expect(decoded == Self.response)
        #expect(decoded.photoURL == nil)
        #expect(decoded.announcement.status == .missing)
    }

    @Test func encodesFlatWithAnExplicitNullPhotoURL() throws {
        #expect(try Self.response.jsonString() == Self.json)
    }

    @Test func carriesThePhotoURLOnceThereIsOne() throws {
        var response = Self.response
        response.photoURL = "http://localhost:8080/photos/e621.jpg"
        let json = try response.jsonString()
        #expect(json.contains(#""photo_url":"http://localhost:8080/photos/e621.jpg""#))
        #expect(try PetSpotJSON.decode(AnnouncementResponse.self, from: Data(json.utf8)) == response)
    }

    @Test func photoUploadResponseHasOnlyThePhotoURL() throws {
        let body = PhotoUploadResponse(photoURL: "https://petspot.example/p/1.jpg")
        #expect(try body.jsonString() == #"{"photo_url":"https://petspot.example/p/1.jpg"}"#)
        let decoded = try PetSpotJSON.decode(PhotoUploadResponse.self, from: Data(#"{"photo_url":"x"}"#.utf8))
        #expect(decoded.photoURL == "x")
    }
}
