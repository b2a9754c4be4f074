import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PetSpot
import Testing
@testable import PetSpotServer

/// What the pages say about mail, on the configured backend: with mail, a search near a place
/// links to following it by email and a pet's page says who is emailed about possible matches;
/// without it, the same places say the site sends no email and the subscription's pages are not
/// there; a closed report says nothing about mail.
@Suite struct MailNoticeTests {
    static let near = "/?near_place=Mokot%C3%B3w%2C%20Warsaw&radius_km=5&species=dog"

    @Test func withMailTheListLinksToAlertsAndAPetsPageSaysWhoIsEmailed() async throws {
        var mailing = try await TestServer()
        try mailing.turnMailOn()
        let server = mailing
        try await server.test { client in
            try await server.places.replacePlaces(try PlacesTests.sample())
            let missing = try await client.createAnnouncement()
            let list = String(buffer: try await client.execute(uri: Self.near, method: .get).body)
            let link = try #require(list.firstMatch(of: /<a href="(\/alerts\/new\?[^"]+)">Get an email when a pet is reported here<\/a>/))
            let path = String(link.1).replacingOccurrences(of: "&amp;", with: "&")
            #expect(path.contains("near_place=Mokot%C3%B3w") && path.contains("radius_km=5") && path.contains("species=dog"), "\(path)")
            #expect(try await client.execute(uri: path, method: .get).status == .ok)
            // The plain list (no place searched) offers nothing to follow.
            #expect(!String(buffer: try await client.execute(uri: "/", method: .get).body).contains("/alerts/new"))

            let page = String(buffer: try await client.execute(uri: "/pets/\(missing.id.rawValue)", method: .get).body)
            #expect(page.contains(#"<p class="matches-note">Its owner is emailed when a new report may match.</p>"#))
            let found = try await client.createAnnouncement(RequestBodies.announcement(["status": #""FOUND""#, "sex": #""UNKNOWN""#]))
            let foundPage = String(buffer: try await client.execute(uri: "/pets/\(found.id.rawValue)", method: .get).body)
            #expect(foundPage.contains("The owners of missing pets it may match are emailed about it."))

            let closed = try await client.execute(uri: AnnouncementsAPI.announcementPath(id: missing.id), method: .patch,
                                                  headers: [.contentType: "application/json", .authorization: missing.credentials.authorizationHeader],
                                                  body: ByteBuffer(string: #"{"status":"CLOSED","closed_outcome":"REUNITED"}"#))
            #expect(closed.status == .ok)
            let after = String(buffer: try await client.execute(uri: "/pets/\(missing.id.rawValue)", method: .get).body)
            #expect(!after.contains("matches-note"), "a closed report says nothing about mail")
        }
    }

    @Test func withoutMailThePagesSaySoAndTheAlertPagesAreNotThere() async throws {
        let server = try await TestServer()
        try await server.test { client in
            try await server.places.replacePlaces(try PlacesTests.sample())
            let missing = try await client.createAnnouncement()
            let list = String(buffer: try await client.execute(uri: Self.near, method: .get).body)
            #expect(list.contains("Email alerts for an area need this site to send email, which it is not set up to do."))
            #expect(!list.contains("/alerts/new"))
            let page = String(buffer: try await client.execute(uri: "/pets/\(missing.id.rawValue)", method: .get).body)
            #expect(page.contains("This site sends no email: come back to this page for new possible matches."))
            #expect(try await client.execute(uri: "/alerts/new?near_place=Warsaw&radius_km=5", method: .get).status == .notFound)
        }
    }
}
