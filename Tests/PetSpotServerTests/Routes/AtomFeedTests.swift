import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PetSpot
import Testing
@testable import PetSpotServer

/// `/feed.atom` on the configured backend: the list's filters and the search near a place, newest
/// first, at most 50 entries, no contact details, every text escaped for XML (control characters
/// never get this far: a create holding one is refused).
@Suite struct AtomFeedTests {
    static func feed(_ client: any TestClientProtocol, _ query: String = "") async throws -> (HTTPResponse.Status, String) {
        let reply = try await client.execute(uri: "/feed.atom" + query, method: .get)
        return (reply.status, String(buffer: reply.body))
    }

    static func ids(_ xml: String) -> [String] {
        xml.matches(of: /<id>urn:uuid:([0-9a-f-]+)<\/id>/).map { String($0.1) }
    }

    @Test func newestFirstWithTheFiltersAndNoContacts() async throws {
        let server = try await TestServer()
        try await server.test { client in
            try await server.places.replacePlaces(try PlacesTests.sample())
            let dog = try await NearSearchTests.create(client, 52.1934, 21.03487)
            let cat = try await NearSearchTests.create(client, 52.2297, 21.0122, species: "CAT", status: "FOUND")
            let paris = try await NearSearchTests.create(client, 48.85341, 2.3488)
            let (status, xml) = try await Self.feed(client)
            #expect(status == .ok)
            #expect(xml.hasPrefix(#"<?xml version="1.0" encoding="utf-8"?>"#) && xml.contains(#"<feed xmlns="http://www.w3.org/2005/Atom">"#))
            #expect(Self.ids(xml) == [paris.id.rawValue, cat.id.rawValue, dog.id.rawValue])
            #expect(xml.contains("<title>PetSpot: lost and found pets</title>"))
            #expect(!xml.contains("+48123456789") && !xml.contains("owner@example.com"), "no contact details")
            #expect(xml.contains("<summary>MISSING: Dog. Last seen on Nov 18, 2025, in Mokotów, Warsaw, Poland. Brown &quot;Rex&quot;, red collar"))
            #expect(Self.ids(try await Self.feed(client, "?species=cat").1) == [cat.id.rawValue])
            #expect(Self.ids(try await Self.feed(client, "?status=missing").1) == [paris.id.rawValue, dog.id.rawValue])
            let (_, near) = try await Self.feed(client, "?near_place=Warsaw&radius_km=10")
            #expect(Self.ids(near) == [cat.id.rawValue, dog.id.rawValue])
            #expect(near.contains("<title>PetSpot: lost and found pets within 10 km of Warsaw, Poland</title>"))
            let (refused, text) = try await Self.feed(client, "?near_place=Atlantis")
            #expect(refused == .badRequest && text.contains("near_place"))
        }
    }

    @Test func fiftyEntriesAtMostAndHostileTextEscaped() async throws {
        var server = try await TestServer()
        var limits = RateLimits()
        limits.creates = .init(perMinute: 600, burst: 100)
        server.services.rateLimiter = RateLimiter(limits: limits)
        try await server.test { client in
            let hostile = try await client.createAnnouncement(RequestBodies.announcement([
                "description": #""</summary><script>alert(1)</script> & ]]>""#,
            ]))
            for _ in 0..<52 { _ = try await client.createAnnouncement() }
            let (_, xml) = try await Self.feed(client)
            #expect(Self.ids(xml).count == 50)
            #expect(!Self.ids(xml).contains(hostile.id.rawValue), "the oldest is past the 50 newest")
            let (_, all) = try await Self.feed(client, "?species=dog")
            #expect(Self.ids(all).count == 50)
            let alone = try await client.execute(uri: "/feed.atom?status=missing&species=dog", method: .get)
            #expect(alone.headers[.contentType] == "application/atom+xml; charset=utf-8")
            // The hostile one, in a feed of its own: near its point, where nothing else is.
            let patch = try await client.execute(uri: AnnouncementsAPI.announcementPath(id: hostile.id), method: .patch,
                                                 headers: [.contentType: "application/json", .authorization: hostile.credentials.authorizationHeader],
                                                 body: ByteBuffer(string: #"{"location_latitude":10,"location_longitude":10}"#))
            #expect(patch.status == .ok)
            let (_, one) = try await Self.feed(client, "?near=10,10&radius_km=1")
            #expect(Self.ids(one) == [hostile.id.rawValue])
            #expect(one.contains("&lt;/summary&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; ]]&gt;"), "\(one)")
        }
    }
}

@Suite struct AtomTextTests {
    @Test func textIsEscapedAndWhatXMLCannotHoldIsDropped() {
        #expect(AtomFeedRoute<ServerRequestContext>.escaped("a<b>&\"'\u{1}\u{8}\tc\u{FFFE}") == "a&lt;b&gt;&amp;&quot;&apos;\tc")
    }
}
