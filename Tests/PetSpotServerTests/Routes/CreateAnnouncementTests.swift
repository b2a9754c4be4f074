import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PetSpot
import Testing
@testable import PetSpotServer

@Suite struct CreateAnnouncementTests {
    @Test func createsWithALowerCaseIdASixDigitPasswordAndNoPhoto() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let response = try await client.execute(uri: "/api/v1/announcements", method: .post,
                                                          headers: RequestBodies.jsonHeaders, body: RequestBodies.announcement())
            #expect(response.status == .created)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
            let id = try #require(json["id"] as? String)
            #expect(id == id.lowercased() && UUID(uuidString: id) != nil)
            #expect(json["photo_url"] is NSNull)
            #expect(json["species"] as? String == "DOG" && json["last_seen_date"] as? String == "2025-11-18")
            #expect(json["description"] as? String == "Brown \"Rex\", red collar\n$5 tag 🐶")
            let password = try #require(json["management_password"] as? String)
            #expect(AnnouncementCredentials.isWellFormedPassword(password))
            #expect(response.headers[.location] == "/api/v1/announcements/\(id)")

            // Stored: one row, the password only as a keyed MAC that verifies under the server's key.
            let stored = try #require(try await server.store.announcement(id: AnnouncementID(rawValue: id)!))
            #expect(!stored.passwordHash.contains(password) && stored.passwordHash.hasPrefix("hmac-sha256$"))
            #expect(await TestServer.keyring.verify(id: id, password: password, stored: stored.passwordHash) == .match(restore: nil))
            #expect(try await server.announcementCount() == 1)
        }
    }

    @Test func passwordsDifferBetweenAnnouncements() async throws {
        let server = try await TestServer()
        try await server.test { client in
            var passwords: Set<String> = []
            for _ in 0..<8 { passwords.insert(try await client.createAnnouncement().managementPassword) }
            #expect(passwords.count >= 7)
            #expect(try await server.announcementCount() == 8)
        }
    }

    static let badBodies: [(String, String, String?)] = [
        ("{\"species\": ", "malformed_request", nil),
        ("[1, 2]", "malformed_request", nil),
        ("not json at all", "malformed_request", nil),
    ]

    @Test(arguments: badBodies)
    func malformedJSONIs400WithoutAField(body: String, code: String, field: String?) async throws {
        let server = try await TestServer()
        try await server.test { client in
            let response = try await client.execute(uri: "/api/v1/announcements", method: .post,
                                                          headers: RequestBodies.jsonHeaders, body: ByteBuffer(string: body))
            #expect(response.status == .badRequest)
            let error = try response.apiError()
            #expect(error.code.rawValue == code)
            #expect(error.field == field)
            #expect(try await server.announcementCount() == 0)
        }
    }

    static let badFields: [(String, String?)] = [
        ("species", nil), ("species", #""DRAGON""#), ("sex", "1"), ("last_seen_date", #""18.11.2025""#),
        ("last_seen_date", #""2999-01-01""#), ("location_latitude", #""52.1""#), ("location_latitude", "91"),
        ("location_longitude", "-180.5"), ("email", #""owner@""#), ("phone", #""12345""#), ("status", #""LOST""#),
        ("microchip_number", #""12ab""#), ("microchip_number", #""""#), ("description", "\"" + String(repeating: "x", count: 501) + "\""),
        ("reward", "\"" + String(repeating: "x", count: 121) + "\""), ("email", "null"),
        ("breed", "\"" + String(repeating: "x", count: 101) + "\""), ("breed", #""Lab\u0000rador""#), ("breed", "12"),
        ("approximate_age", "41"), ("approximate_age", "-1"), ("approximate_age", "3.5"), ("approximate_age", #""3""#),
        ("approximate_age", "1e30"),
    ]

    /// Breed and age: sent, stored trimmed, read back; absent when not sent.
    @Test func breedAndAgeAreStoredAndReadBack() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let response = try await client.execute(
                uri: "/api/v1/announcements", method: .post, headers: RequestBodies.jsonHeaders,
                body: RequestBodies.announcement(["breed": #""  Border collie  ""#, "approximate_age": "0"]))
            #expect(response.status == .created)
            let created = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
            #expect(created["breed"] as? String == "Border collie" && created["approximate_age"] as? Int == 0, "\(created)")
            let id = try #require(created["id"] as? String)
            let read = try await client.execute(uri: "/api/v1/announcements/\(id)", method: .get)
            let details = try #require(try JSONSerialization.jsonObject(with: Data(buffer: read.body)) as? [String: Any])
            #expect(details["breed"] as? String == "Border collie" && details["approximateAge"] as? String == "0", "\(details)")
            let stored = try #require(try await server.store.announcement(id: AnnouncementID(rawValue: id)!))
            #expect(stored.request.breed == "Border collie" && stored.request.approximateAge == 0)

            // Without them (an older client), and with a blank breed: neither key comes back.
            for overrides in [[:], ["breed": #""   ""#, "approximate_age": "null"]] as [[String: String?]] {
                let plain = try await client.execute(uri: "/api/v1/announcements", method: .post, headers: RequestBodies.jsonHeaders,
                                                     body: RequestBodies.announcement(overrides))
                #expect(plain.status == .created)
                let plainID = try #require((try JSONSerialization.jsonObject(with: Data(buffer: plain.body)) as? [String: Any])?["id"] as? String)
                let shown = try await client.execute(uri: "/api/v1/announcements/\(plainID)", method: .get)
                let json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: shown.body)) as? [String: Any])
                #expect(json["breed"] == nil && json["approximateAge"] == nil, "\(overrides): \(json)")
            }
        }
    }

    @Test(arguments: badFields)
    func eachBadFieldIsNamed(field: String, value: String?) async throws {
        let overrides: [String: String?] = [field: value]
        let server = try await TestServer()
        try await server.test { client in
            let response = try await client.execute(uri: "/api/v1/announcements", method: .post,
                                                          headers: RequestBodies.jsonHeaders, body: RequestBodies.announcement(overrides))
            #expect(response.status == .badRequest)
            let error = try response.apiError()
            #expect(error.field == field, "\(error.message)")
            #expect(!error.message.isEmpty)
            #expect(try await server.announcementCount() == 0)
        }
    }

    @Test func theFirstBadFieldInContractOrderIsNamed() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let response = try await client.execute(
                uri: "/api/v1/announcements", method: .post, headers: RequestBodies.jsonHeaders,
                body: RequestBodies.announcement(["phone": #""1""#, "location_latitude": "100", "email": #""x""#]))
            #expect(try response.apiError().field == "location_latitude")
        }
    }

    @Test func anOversizedBodyIs413() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let big = ByteBuffer(repeating: UInt8(ascii: " "), count: CreateRequestIntake.maximumBodyBytes + 1)
            let response = try await client.execute(uri: "/api/v1/announcements", method: .post,
                                                          headers: RequestBodies.jsonHeaders, body: big)
            #expect(response.status == .contentTooLarge)
            #expect(try response.apiError().code == .payloadTooLarge)
            #expect(try await server.announcementCount() == 0)
        }
    }
}

@Suite struct IdempotencyTests {
    @Test func theSameKeyAndBodyReturnTheFirstResponse() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let headers: HTTPFields = [.contentType: "application/json", AnnouncementRoutes<ServerRequestContext>.idempotencyKeyHeader: "key-1"]
            let first = try await client.createAnnouncement(headers: headers)
            // Same request, spaced differently: still the same request.
            let spaced = ByteBuffer(string: String(buffer: RequestBodies.announcement()).replacingOccurrences(of: "\":", with: "\" : "))
            let replay = try await client.execute(uri: "/api/v1/announcements", method: .post, headers: headers, body: spaced)
            #expect(replay.status == .created)
            #expect(replay.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            let second = try PetSpotJSON.decode(AnnouncementResponse.self, from: Data(buffer: replay.body))
            #expect(second.id == first.id)
            #expect(second.managementPassword == first.managementPassword)
            #expect(try await server.announcementCount() == 1)
        }
    }

    @Test func theSameKeyWithAnotherBodyIs422() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let headers: HTTPFields = [.contentType: "application/json", AnnouncementRoutes<ServerRequestContext>.idempotencyKeyHeader: "key-2"]
            _ = try await client.createAnnouncement(headers: headers)
            let other = try await client.execute(uri: "/api/v1/announcements", method: .post, headers: headers,
                                                       body: RequestBodies.announcement(["phone": #""+48999999999""#]))
            #expect(other.status == .unprocessableContent)
            #expect(try other.apiError().code == .idempotencyKeyReused)
            #expect(try await server.announcementCount() == 1)
        }
    }

    @Test func concurrentRequestsWithOneKeyCreateOneAnnouncement() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let headers: HTTPFields = [.contentType: "application/json", AnnouncementRoutes<ServerRequestContext>.idempotencyKeyHeader: "key-3"]
            let ids = try await withThrowingTaskGroup(of: AnnouncementID.self) { group in
                for _ in 0..<6 { group.addTask { try await client.createAnnouncement(headers: headers).id } }
                return try await group.reduce(into: Set<AnnouncementID>()) { $0.insert($1) }
            }
            #expect(ids.count == 1)
            #expect(try await server.announcementCount() == 1)
            #expect(try await server.idempotencyCount() == 1)
        }
    }

    @Test func theStoredResponseDoesNotHoldThePasswordReadably() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let headers: HTTPFields = [.contentType: "application/json", AnnouncementRoutes<ServerRequestContext>.idempotencyKeyHeader: "key-4"]
            let created = try await client.createAnnouncement(headers: headers)
            let needle = Data("\"management_password\":\"\(created.managementPassword)\"".utf8)
            #expect(try await !server.storedBytesContain(needle))
        }
    }

    @Test func aMalformedKeyIs400() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let headers: HTTPFields = [.contentType: "application/json",
                                       AnnouncementRoutes<ServerRequestContext>.idempotencyKeyHeader: String(repeating: "k", count: 256)]
            let response = try await client.execute(uri: "/api/v1/announcements", method: .post, headers: headers,
                                                          body: RequestBodies.announcement())
            #expect(response.status == .badRequest)
            #expect(try await server.announcementCount() == 0)
        }
    }
}
