import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PetSpot
import Testing
@testable import PetSpotServer

/// The gazetteer on the configured backend: GeoNames' file read and stored, names resolved to
/// places (any case, with or without diacritics, qualified by a country or a larger place), and
/// an announcement's coordinates turned into words once, when it is created or moved.
@Suite struct PlacesTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func sample() throws -> [Place] {
        try GeoNamesFile.read(fixtures.appendingPathComponent("places-sample.json").path)
    }

    @Test func bothFileFormatsAreRead() throws {
        let json = try Self.sample()
        #expect(json.count == 36)
        let lodz = try #require(json.first { $0.name == "Łódź" })
        #expect(lodz.countryCode == "PL" && lodz.population == 639_890 && abs(lodz.latitude - 51.77058) < 1e-9)
        let tsv = try GeoNamesFile.read(Self.fixtures.appendingPathComponent("places-sample.txt").path)
        #expect(tsv.count == 4 && tsv.allSatisfy { place in json.contains { $0.id == place.id && $0.name == place.name } })
        #expect(throws: GeoNamesFile.Failure.self) { try GeoNamesFile.read(#filePath) }
    }

    @Test func namesFoldToOneSpelling() {
        #expect(PlaceName.fold("Mokotów") == "mokotow")
        #expect(PlaceName.fold("  ŁÓDŹ ") == "lodz")
        #expect(PlaceName.fold("Saint-Étienne") == "saint etienne")
        #expect(PlaceName.fold("Ząbki") == "zabki")
    }

    @Test func namesResolveToTheMostPopulousPlaceUnlessQualified() async throws {
        let server = try await TestServer()
        try await server.test { _ in
            let stored = try await server.places.replacePlaces(try Self.sample())
            #expect(stored > 36)
            #expect(try await server.places.placeCount() == 36)
            // Replaced, not added to.
            try await server.places.replacePlaces(try Self.sample())
            #expect(try await server.places.placeCount() == 36)
            let gazetteer = try #require(server.services.gazetteer)
            for (query, expected) in [("Warszawa", "Warsaw, Poland"), ("warsaw", "Warsaw, Poland"), ("WARSAW", "Warsaw, Poland"),
                                      ("Mokotow", "Mokotów, Warsaw, Poland"), ("Mokotów, Warsaw", "Mokotów, Warsaw, Poland"),
                                      ("lodz", "Łódź, Poland"), ("Paris", "Paris, France"), ("Paris, US", "Paris, United States"),
                                      ("paris, united states", "Paris, United States"), ("Paris, FR", "Paris, France"),
                                      ("東京", "Tokyo, Japan"), ("Warsaw, US", "Warsaw, United States")] {
                #expect(try await gazetteer.resolve(query)?.label == expected, "\(query)")
            }
            #expect(try await gazetteer.resolve("Warsaw, US")?.latitude == 41.2381, "the most populous Warsaw in the United States")
            for unknown in ["Nowhereville", "Paris, Japan", "", ",", String(repeating: "a", count: 300)] {
                #expect(try await gazetteer.resolve(unknown) == nil, "\(unknown)")
            }
        }
    }

    @Test func coordinatesReadAsTheNearestPlaceAndTheLargerOneAround() async throws {
        let server = try await TestServer()
        try await server.test { _ in
            try await server.places.replacePlaces(try Self.sample())
            let gazetteer = try #require(server.services.gazetteer)
            #expect(try await gazetteer.describe(latitude: 52.1934, longitude: 21.03487) == "In Mokotów, Warsaw, Poland")
            #expect(try await gazetteer.describe(latitude: 52.2059, longitude: 21.0348) == "1.4 km from Mokotów, Warsaw, Poland")
            #expect(try await gazetteer.describe(latitude: 52.2297, longitude: 21.0122) == "In Warsaw, Poland")
            #expect(try await gazetteer.describe(latitude: 52.09, longitude: 21.03) == "1.0 km from Piaseczno, Warsaw, Poland", "a town beside a city: the city, never one of its districts")
            #expect(try await gazetteer.describe(latitude: 48.8601, longitude: 2.3607) == "0.7 km from Paris 04 Hôtel-de-Ville, Paris, France")
            // Mid-Atlantic: nothing within 30 km.
            #expect(try await gazetteer.describe(latitude: 51, longitude: -30) == nil)
        }
    }

    /// Through the API: the place of a new announcement is in its details (as `location`, the
    /// seeds' city text) and on its page; moving it computes it again; no gazetteer, coordinates.
    @Test func anAnnouncementShowsItsPlaceOnceComputed() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let before = try await client.createAnnouncement(RequestBodies.announcement(["location_latitude": "52.1934", "location_longitude": "21.03487"]))
            try await server.places.replacePlaces(try Self.sample())
            let created = try await client.createAnnouncement(RequestBodies.announcement(["location_latitude": "52.1934", "location_longitude": "21.03487"]))
            let details = try await client.details(created.id)
            #expect(details.location == "In Mokotów, Warsaw, Poland")
            #expect(details.locationLatitude == 52.1934)
            // Made before the import: computed once, at creation, so it keeps its coordinates.
            #expect(try await client.details(before.id).location == PetLocation(latitude: 52.1934, longitude: 21.03487).text)
            let page = try await client.execute(uri: "/pets/\(created.id.rawValue)", method: .get)
            #expect(String(buffer: page.body).contains("In Mokotów, Warsaw, Poland"))
            #expect(String(buffer: page.body).contains(#"<a href="https://www.geonames.org/">GeoNames</a> (CC BY 4.0)"#))
            let list = try await client.execute(uri: "/", method: .get)
            #expect(String(buffer: list.body).contains("In Mokotów, Warsaw, Poland") && String(buffer: list.body).contains("GeoNames"))

            let moved = try await client.execute(uri: AnnouncementsAPI.announcementPath(id: created.id), method: .patch,
                                                 headers: [.contentType: "application/json", .authorization: created.credentials.authorizationHeader],
                                                 body: ByteBuffer(string: #"{"location_latitude":48.85341,"location_longitude":2.3488}"#))
            #expect(moved.status == .ok)
            #expect(try await client.details(created.id).location == "In Paris, France")
            let other = try await client.execute(uri: AnnouncementsAPI.announcementPath(id: created.id), method: .patch,
                                                 headers: [.contentType: "application/json", .authorization: created.credentials.authorizationHeader],
                                                 body: ByteBuffer(string: #"{"description":"Still in Paris"}"#))
            #expect(other.status == .ok)
            #expect(try await client.details(created.id).location == "In Paris, France")
        }
    }

    @Test func thePlacesEndpointAnswersAndRefuses() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let empty = try await client.execute(uri: "/api/v1/places?q=Paris", method: .get)
            #expect(empty.status == .notFound, "nothing imported yet")
            try await server.places.replacePlaces(try Self.sample())
            let paris = try await client.execute(uri: "/api/v1/places?q=Paris%2C%20US", method: .get)
            #expect(paris.status == .ok)
            let answer = try JSONSerialization.jsonObject(with: Data(buffer: paris.body)) as? [String: Any]
            #expect(answer?["name"] as? String == "Paris" && answer?["country"] as? String == "United States")
            #expect(answer?["latitude"] as? Double == 33.66094 && answer?["longitude"] as? Double == -95.55551)
            let form = try await client.execute(uri: "/api/v1/places?q=Moko%C5%82%C3%B3w+Warsaw", method: .get)
            #expect(form.status == .notFound, "a + is a space: 'Mokołów Warsaw' is no place")
            for (uri, status) in [("/api/v1/places", HTTPResponse.Status.badRequest), ("/api/v1/places?q=", .badRequest),
                                  ("/api/v1/places?q=" + String(repeating: "x", count: 201), .badRequest),
                                  ("/api/v1/places?q=Atlantis", .notFound), ("/api/v1/places?q=%27%20OR%201%3D1%20--", .notFound)] {
                let reply = try await client.execute(uri: uri, method: .get)
                #expect(reply.status == status, "\(uri)")
                #expect(String(buffer: reply.body).contains("\"error\""), "\(uri)")
            }
        }
    }
}

private extension TestClientProtocol {
    func details(_ id: AnnouncementID) async throws -> PetDetails {
        let reply = try await execute(uri: AnnouncementsAPI.announcementPath(id: id), method: .get)
        return try PetSpotJSON.decode(PetDetails.self, from: Data(buffer: reply.body))
    }
}
