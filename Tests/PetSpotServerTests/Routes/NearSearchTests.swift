import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PetSpot
import Testing
@testable import PetSpotServer

/// `GET /api/v1/announcements?near=…|near_place=…&radius_km=…`, on the configured backend:
/// nearest first with `distanceKm`, the list's filters and `since`, paged by a cursor, the
/// spatial index kept right through moves and take-downs, and every bad value a 400 naming it.
@Suite struct NearSearchTests {
    struct Listed: Decodable {
        var data: [PetDetails]
        var next_cursor: String?
        var near: Near?
        struct Near: Decodable { var place: String; var latitude: Double; var longitude: Double }
    }

    static func list(_ client: any TestClientProtocol, _ query: String) async throws -> (HTTPResponse.Status, Listed?, String) {
        let reply = try await client.execute(uri: "/api/v1/announcements?" + query, method: .get)
        let text = String(buffer: reply.body)
        return (reply.status, try? PetSpotJSON.decode(Listed.self, from: Data(text.utf8)), text)
    }

    static func create(_ client: any TestClientProtocol, _ latitude: Double, _ longitude: Double, species: String = "DOG",
                       status: String = "MISSING", date: String = "2025-11-18") async throws -> AnnouncementResponse {
        try await client.createAnnouncement(RequestBodies.announcement([
            "location_latitude": String(latitude), "location_longitude": String(longitude),
            "species": "\"\(species)\"", "status": "\"\(status)\"", "last_seen_date": "\"\(date)\"",
        ]))
    }

    @Test func nearestFirstWithinTheRadiusWithTheFilters() async throws {
        let server = try await TestServer()
        try await server.test { client in
            try await server.places.replacePlaces(try PlacesTests.sample())
            let centre = try await Self.create(client, 52.2297, 21.0122)
            let mokotow = try await Self.create(client, 52.1934, 21.03487, status: "FOUND", date: "2025-11-20")
            let zabki = try await Self.create(client, 52.29271, 21.10539, species: "CAT", date: "2025-11-10")
            let paris = try await Self.create(client, 48.85341, 2.3488)
            _ = try await Self.create(client, 0, 0)
            let closed = try await Self.create(client, 52.2298, 21.0123)
            let closing = try await client.execute(uri: AnnouncementsAPI.announcementPath(id: closed.id), method: .patch,
                                                   headers: [.contentType: "application/json", .authorization: closed.credentials.authorizationHeader],
                                                   body: ByteBuffer(string: #"{"status":"closed","closed_outcome":"reunited"}"#))
            #expect(closing.status == .ok)

            let (status, listed, text) = try await Self.list(client, "near=52.2297,21.0122&radius_km=15")
            #expect(status == .ok, "\(text)")
            let found = try #require(listed).data
            #expect(found.map(\.id) == [centre.id, mokotow.id, zabki.id], "\(text)")
            // Great-circle distances, to 10 m (two decimals).
            for item in found {
                let distance = try #require(item.distanceKm)
                let exact = Place.distanceKm((52.2297, 21.0122), (try #require(item.locationLatitude), try #require(item.locationLongitude)))
                #expect(abs(distance - exact) <= 0.006, "\(item.location): \(distance) km, exactly \(exact)")
            }
            #expect(found.map { $0.distanceKm ?? -1 } == found.map { $0.distanceKm ?? -1 }.sorted())
            #expect(found.allSatisfy { $0.phone.isEmpty && $0.email == nil }, "no contact details in a list")
            #expect(!text.contains(paris.id.rawValue))

            #expect(try await Self.list(client, "near=52.2297,21.0122&radius_km=15&species=cat").1?.data.map(\.id) == [zabki.id])
            #expect(try await Self.list(client, "near=52.2297,21.0122&radius_km=15&status=found").1?.data.map(\.id) == [mokotow.id])
            #expect(try await Self.list(client, "near=52.2297,21.0122&radius_km=15&status=closed").1?.data.map(\.id) == [closed.id])
            #expect(try await Self.list(client, "near=52.2297,21.0122&radius_km=15&since=2025-11-18").1?.data.map(\.id) == [centre.id, mokotow.id])
            #expect(try await Self.list(client, "near=52.2297,21.0122&radius_km=5").1?.data.map(\.id) == [centre.id, mokotow.id])
            #expect(try await Self.list(client, "near=52.2297,21.0122").1?.data.count == 3, "10 km by default")

            let (_, byName, _) = try await Self.list(client, "near_place=Mokotow&radius_km=3")
            #expect(byName?.data.map(\.id) == [mokotow.id])
            #expect(byName?.near?.place == "Mokotów, Warsaw, Poland" && byName?.near?.latitude == 52.1934)
            #expect(try await Self.list(client, "near_place=Paris%2C%20France&radius_km=1").1?.data.map(\.id) == [paris.id])
        }
    }

    @Test func pagesFollowTheOrderAndTheIndexFollowsChanges() async throws {
        let server = try await TestServer()
        try await server.test { client in
            var made: [AnnouncementResponse] = []
            for step in 0..<7 {
                made.append(try await Self.create(client, 52.2297 + Double(step) * 0.01, 21.0122))
            }
            // Two at the very same point: the newer first.
            let twin = try await Self.create(client, 52.2297, 21.0122)
            let all = try #require(try await Self.list(client, "near=52.2297,21.0122&radius_km=50&limit=100").1).data.map(\.id)
            #expect(all == [twin.id] + made.map(\.id))
            var paged: [AnnouncementID] = []
            var cursor: String?
            repeat {
                let (status, page, text) = try await Self.list(client, "near=52.2297,21.0122&radius_km=50&limit=3" + (cursor.map { "&cursor=\($0)" } ?? ""))
                #expect(status == .ok, "\(text)")
                paged += page?.data.map(\.id) ?? []
                cursor = page?.next_cursor
            } while cursor != nil && paged.count < 20
            #expect(paged == all)

            // Moved far away: out of the search; taken down: gone from it.
            let moved = made[1]
            let patch = try await client.execute(uri: AnnouncementsAPI.announcementPath(id: moved.id), method: .patch,
                                                 headers: [.contentType: "application/json", .authorization: moved.credentials.authorizationHeader],
                                                 body: ByteBuffer(string: #"{"location_latitude":48.85,"location_longitude":2.35}"#))
            #expect(patch.status == .ok)
            let gone = made[2]
            let delete = try await client.execute(uri: AnnouncementsAPI.announcementPath(id: gone.id), method: .delete,
                                                  headers: [.authorization: gone.credentials.authorizationHeader])
            #expect(delete.status == .noContent)
            let after = try #require(try await Self.list(client, "near=52.2297,21.0122&radius_km=50&limit=100").1).data.map(\.id)
            #expect(after == [twin.id, made[0].id] + made[3...].map(\.id))
            #expect(try await Self.list(client, "near=48.85,2.35&radius_km=1").1?.data.map(\.id) == [moved.id])
        }
    }

    /// What a hostile or careless client gets: 400 naming the parameter, never a 500 or a scan.
    @Test func badValuesAre400NamingTheParameter() async throws {
        let server = try await TestServer()
        try await server.test { client in
            try await server.places.replacePlaces(try PlacesTests.sample())
            for (query, field) in [("near=91,0", "near"), ("near=0,181", "near"), ("near=52", "near"), ("near=a,b", "near"),
                                   ("near=nan,nan", "near"), ("near=1e400,0", "near"),
                                   ("near=52,21&radius_km=0", "radius_km"), ("near=52,21&radius_km=201", "radius_km"),
                                   ("near=52,21&radius_km=inf", "radius_km"), ("near=52,21&radius_km=ten", "radius_km"),
                                   ("radius_km=5", "radius_km"), ("since=2025-11-18", "since"), ("near=52,21&since=yesterday", "since"),
                                   ("near=52,21&near_place=Warsaw", "near_place"), ("near_place=Atlantis", "near_place"),
                                   ("near_place=" + String(repeating: "x", count: 300), "near_place"),
                                   ("near=52,21&cursor=djEuMTI", "cursor"), ("near=", "near"), ("near_place=", "near_place"),
                                   ("near=52,21&radius_km=", "radius_km"), ("near=52,21&species=dragon", "species")] {
                let (status, _, text) = try await Self.list(client, query)
                #expect(status == .badRequest && text.contains("\"field\":\"\(field)\""), "\(query): \(status) \(text)")
            }
        }
    }

    /// The list page's "Near" field: the heading says where, each card how far; left empty, the
    /// plain list; an unknown place, a 400 page that says so.
    @Test func theListPageSearchesNearAPlace() async throws {
        let server = try await TestServer()
        try await server.test { client in
            try await server.places.replacePlaces(try PlacesTests.sample())
            _ = try await Self.create(client, 52.1934, 21.03487)
            _ = try await Self.create(client, 52.2297, 21.0122)
            _ = try await Self.create(client, 48.85341, 2.3488)
            let near = try await client.execute(uri: "/?near_place=Mokotow&radius_km=10&species=", method: .get)
            let html = String(buffer: near.body)
            #expect(near.status == .ok)
            #expect(html.contains("<h1>Lost and found pets within 10 km of Mokotów, Warsaw, Poland</h1>"), "\(html)")
            #expect(html.contains("<p>0.0 km away · Mokotów</p>") && html.contains("<p>4.3 km away · Warsaw</p>"))
            #expect(!html.contains("Paris") && html.contains(#"value="Mokotow""#) && html.contains(#"<option value="10" selected>"#))
            let plain = String(buffer: try await client.execute(uri: "/?near_place=&radius_km=10", method: .get).body)
            #expect(plain.contains("<h1>Lost and found pets</h1>") && plain.contains("Paris"))
            let unknown = try await client.execute(uri: "/?near_place=Atlantis", method: .get)
            #expect(unknown.status == .badRequest && String(buffer: unknown.body).contains("is not a place this site knows"))
            let badRadius = try await client.execute(uri: "/?near_place=Warsaw&radius_km=7", method: .get)
            #expect(badRadius.status == .badRequest)
        }
    }
}
