import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PetSpot
import PhotoPipeline
import Testing
@testable import PetSpotServer

/// Possible matches on the configured backend: what is excluded (distance, dates, species, sex,
/// closed), how the rest rank (distance, days, breed words, photos' colours), and that a list
/// carries no contact details.
@Suite struct MatchesTests {
    /// A 400 × 300 photo: an animal-shaped blob of `colour` on grass.
    static func photo(_ colour: (UInt8, UInt8, UInt8)) throws -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var pixels = [UInt8](repeating: 0, count: 400 * 300 * 3)
        for y in 0..<300 {
            for x in 0..<400 {
                let dx = Double(x - 200) / 110, dy = Double(y - 160) / 70
                let inside = dx * dx + dy * dy < 1 || (pow(Double(x - 290) / 40, 2) + pow(Double(y - 100) / 35, 2) < 1)
                let noise = UInt8.random(in: 0...12, using: &generator)
                let (r, g, b) = inside ? colour : (UInt8(80), UInt8(130), UInt8(60))
                let i = (y * 400 + x) * 3
                (pixels[i], pixels[i + 1], pixels[i + 2]) = (r &+ noise / 2, g &+ noise / 2, b &+ noise / 2)
            }
        }
        return try PipelineStages.encode(PixelBuffer(width: 400, height: 300, channels: 3, pixels: pixels),
                                         options: EncodingOptions(quality: 90), iccProfile: nil)
    }

    static let golden: (UInt8, UInt8, UInt8) = (205, 160, 80)
    static let black: (UInt8, UInt8, UInt8) = (28, 26, 24)

    @Test func goldenAndBlackAreToldApartBySignature() throws {
        let gold = try PhotoPipeline.colourSignature(try Self.photo(Self.golden))
        let gold2 = try PhotoPipeline.colourSignature(try Self.photo(Self.golden))
        let dark = try PhotoPipeline.colourSignature(try Self.photo(Self.black))
        #expect(gold.distance(to: gold2) < 15, "\(gold) \(gold2)")
        #expect(gold.distance(to: dark) > 30, "\(gold) \(dark)")
        #expect(gold.colours.first.map { $0.l > 55 && $0.b > 25 } == true, "the dominant colour is the golden coat: \(gold)")
    }

    static func create(_ client: any TestClientProtocol, _ latitude: Double, _ longitude: Double, status: String, date: String,
                       species: String = "DOG", sex: String = "MALE", breed: String? = nil) async throws -> AnnouncementResponse {
        var fields: [String: String?] = [
            "location_latitude": String(latitude), "location_longitude": String(longitude), "status": "\"\(status)\"",
            "last_seen_date": "\"\(date)\"", "species": "\"\(species)\"", "sex": "\"\(sex)\"",
        ]
        fields["breed"] = breed.map { "\"\($0)\"" } ?? .some(nil)
        return try await client.createAnnouncement(RequestBodies.announcement(fields))
    }

    @Test func onlyWhatFitsIsListedBestFirstWithReasons() async throws {
        var server = try await TestServer()
        var limits = RateLimits()
        limits.creates = .init(perMinute: 600, burst: 100)
        server.services.rateLimiter = RateLimiter(limits: limits)
        try await server.test { client in
            let lost = try await Self.create(client, 52.2297, 21.0122, status: "MISSING", date: "2025-11-10", breed: "Golden Retriever")
            #expect(try await client.uploadPhoto(try Self.photo(Self.golden), to: lost).status == .created)
            // Same place, same day: the golden one and the black one, told apart by colour.
            let goldenDog = try await Self.create(client, 52.2300, 21.0130, status: "FOUND", date: "2025-11-12", breed: "retriever mix")
            #expect(try await client.uploadPhoto(try Self.photo(Self.golden), to: goldenDog).status == .created)
            let blackDog = try await Self.create(client, 52.2300, 21.0130, status: "FOUND", date: "2025-11-12")
            #expect(try await client.uploadPhoto(try Self.photo(Self.black), to: blackDog).status == .created)
            let fartherLater = try await Self.create(client, 52.3, 21.1, status: "FOUND", date: "2025-12-20", sex: "UNKNOWN")
            // Excluded: too far, found before it was lost, more than 60 days later, a cat, a female, closed.
            _ = try await Self.create(client, 52.6, 21.0, status: "FOUND", date: "2025-11-12")
            _ = try await Self.create(client, 52.23, 21.01, status: "FOUND", date: "2025-11-09")
            _ = try await Self.create(client, 52.23, 21.01, status: "FOUND", date: "2026-01-15")
            _ = try await Self.create(client, 52.23, 21.01, status: "FOUND", date: "2025-11-12", species: "CAT")
            _ = try await Self.create(client, 52.23, 21.01, status: "FOUND", date: "2025-11-12", sex: "FEMALE")
            let closed = try await Self.create(client, 52.23, 21.01, status: "FOUND", date: "2025-11-12")
            let closing = try await client.execute(uri: AnnouncementsAPI.announcementPath(id: closed.id), method: .patch,
                                                   headers: [.contentType: "application/json", .authorization: closed.credentials.authorizationHeader],
                                                   body: ByteBuffer(string: #"{"status":"closed","closed_outcome":"reunited"}"#))
            #expect(closing.status == .ok)

            let reply = try await client.execute(uri: AnnouncementsAPI.announcementPath(id: lost.id) + "/matches", method: .get)
            #expect(reply.status == .ok)
            let text = String(buffer: reply.body)
            let matches = try PetSpotJSON.decode(PossibleMatchList.self, from: Data(text.utf8)).data
            #expect(matches.map(\.id) == [goldenDog.id, blackDog.id, fartherLater.id], "\(text)")
            #expect(matches[0].reasons == ["0.1 km", "2 days later", "both 'retriever'", "similar colours"], "\(matches[0].reasons)")
            #expect(matches[1].reasons.contains("different colours"))
            #expect(matches[2].daysApart == 40 && matches[2].distanceKm > 9 && matches[2].distanceKm < 11)
            #expect(matches.map(\.score) == matches.map(\.score).sorted(by: >))
            #expect(!text.contains("+48123456789") && !text.contains("owner@example.com"), "no contact details")
            #expect(matches[0].url.hasSuffix("/pets/\(goldenDog.id.rawValue)"))

            // From the found side: the missing one.
            let back = try await client.execute(uri: AnnouncementsAPI.announcementPath(id: goldenDog.id) + "/matches", method: .get)
            #expect(try PetSpotJSON.decode(PossibleMatchList.self, from: Data(buffer: back.body)).data.map(\.id) == [lost.id])
            // The page shows them.
            let page = String(buffer: try await client.execute(uri: "/pets/\(lost.id.rawValue)", method: .get).body)
            #expect(page.contains("<h2>Could it be one of these?</h2>") && page.contains("/pets/\(goldenDog.id.rawValue)\">FOUND: Dog, retriever mix</a>"))
            // A closed one has none; an unknown id is 404.
            let none = try await client.execute(uri: AnnouncementsAPI.announcementPath(id: closed.id) + "/matches", method: .get)
            #expect(try PetSpotJSON.decode(PossibleMatchList.self, from: Data(buffer: none.body)).data.isEmpty)
            let unknown = try await client.execute(uri: "/api/v1/announcements/\(UUID().uuidString.lowercased())/matches", method: .get)
            #expect(unknown.status == .notFound)
        }
    }
}
