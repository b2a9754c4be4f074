import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PetSpot
import Testing
@testable import PetSpotServer

/// The public pages as a person meets them on the configured backend: a place the "Near" box
/// does not know gives the list page again with the search kept and the reason beside the box
/// (GOV.UK's error message and summary), and a pet's page is revalidated on every load (`ETag`,
/// `no-cache`), so a closed pet shows as such at the next load.
@Suite struct ListPageSearchTests {
    @Test func anUnknownPlaceKeepsTheSearchAndSaysWhyBesideTheBox() async throws {
        let server = try await TestServer()
        try await server.test { client in
            try await server.places.replacePlaces(try PlacesTests.sample())
            _ = try await client.createAnnouncement()
            let reply = try await client.execute(uri: "/?near_place=Mokotuw&radius_km=5&species=dog", method: .get)
            let html = String(buffer: reply.body)
            #expect(reply.status == .badRequest)
            #expect(!html.contains("This address is not right"))
            #expect(html.contains("<title>Error: ") && html.contains(#"<h2 id="error-summary-title">There is a problem</h2>"#))
            #expect(html.contains(##"<a href="#near_place">"##), "the summary links to the box")
            #expect(html.contains(#"<p class="error-message" id="near_place-error"><span class="visually-hidden">Error:</span> "#))
            #expect(html.contains("is not a place this site knows. Did you mean Mokotów, Warsaw, Poland?"), "\(html)")
            #expect(html.contains(#"id="near_place" name="near_place" value="Mokotuw""#) && html.contains(#"aria-describedby="near_place-error""#))
            #expect(html.contains(#"<option value="dog" selected>"#), "the other filters are kept")
            #expect(html.contains(#"<ul class="cards">"#), "the list is shown under the form")
        }
    }

    @Test func aPetsPageIsRevalidatedSoAChangeShowsAtTheNextLoad() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let created = try await client.createAnnouncement()
            let path = "/pets/\(created.id.rawValue)"
            let first = try await client.execute(uri: path, method: .get)
            #expect(first.status == .ok && first.headers[.cacheControl] == "no-cache")
            let tag = try #require(first.headers[.eTag])
            let again = try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: tag])
            #expect(again.status == .notModified && again.headers[.eTag] == tag && again.body.readableBytes == 0)
            let list = try await client.execute(uri: "/", method: .get)
            #expect(list.headers[.cacheControl] == "no-cache" && list.headers[.eTag] != nil)

            let closed = try await client.execute(uri: AnnouncementsAPI.announcementPath(id: created.id), method: .patch,
                                                  headers: [.contentType: "application/json", .authorization: created.credentials.authorizationHeader],
                                                  body: ByteBuffer(string: #"{"status":"CLOSED","closed_outcome":"REUNITED"}"#))
            #expect(closed.status == .ok)
            let after = try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: tag])
            #expect(after.status == .ok && after.headers[.eTag] != tag)
            #expect(String(buffer: after.body).contains("Reunited"))
        }
    }
}
