import Foundation
import NIOCore
import NIOHTTP1
import PetSpot
import Testing

/// Where the server and `openapi.yaml` once disagreed, against the built `petspot-server`.
@Suite struct ContractEdgeTests {
    @Test func aKnownPathWithAnotherMethodIs405WithAllowAndEveryAllowedMethodIsServed() async throws {
        let data = try makeTemporaryDirectory("methods")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data)
        let created = try await HTTP.create(server.baseURL)
        let upload = try await HTTP.upload(try TestImages.bytes("jpeg-baseline.jpg"), base: server.baseURL, to: created)
        let photoPath = "/photos/" + (try PetSpotJSON.decode(PhotoUploadResponse.self, from: Data(upload.body)).photoURL.split(separator: "/").last ?? "")
        let paths: [(String, Set<String>)] = [
            ("/health", ["GET"]),
            ("/health/live", ["GET"]),
            (AnnouncementsAPI.collectionPath, ["GET", "POST"]),
            (AnnouncementsAPI.announcementPath(id: created.id), ["GET", "PATCH", "DELETE"]),
            (AnnouncementsAPI.photosPath(id: created.id), ["POST"]),
            (AnnouncementsAPI.announcementPath(id: created.id) + "/photo", ["DELETE"]),
            ("/robots.txt", ["GET", "HEAD"]),
            (photoPath, ["GET", "HEAD"]),
            ("/api/v1/places", ["GET"]),
            ("/pets/\(created.id.rawValue)/flyer.pdf", ["GET", "HEAD"]),
            ("/pets/\(created.id.rawValue)/card.jpg", ["GET", "HEAD"]),
            ("/report", ["GET", "HEAD"]),
            ("/report/missing", ["GET", "POST"]),
            ("/report/found", ["GET", "POST"]),
            ("/report/photo", ["POST"]),
            ("/pets/\(created.id.rawValue)/manage", ["GET", "POST"]),
            ("/pets/\(created.id.rawValue)/manage/sign-in", ["POST"]),
            ("/pets/\(created.id.rawValue)/manage/status", ["POST"]),
            ("/pets/\(created.id.rawValue)/manage/take-down", ["GET", "POST"]),
            ("/pets/\(created.id.rawValue)/manage/password", ["POST"]),
            ("/pets/\(created.id.rawValue)/manage/sign-out", ["POST"]),
        ]
        for (path, allowed) in paths {
            for method in ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] {
                let reply = try await HTTP.send(HTTPMethod(rawValue: method), server.baseURL + path,
                                                headers: [("Content-Type", "application/json")])
                if allowed.contains(method) {
                    #expect(reply.status != 405 && reply.status != 404, "\(method) \(path) → \(reply.status)")
                } else {
                    #expect(reply.status == 405, "\(method) \(path) → \(reply.status)")
                    #expect(Set((reply.headers["Allow"].first ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }) == allowed)
                    if method != "HEAD" {
                        #expect(String(decoding: reply.body, as: UTF8.self).contains(#""code":"method_not_allowed""#))
                    }
                }
            }
        }
        #expect(try await HTTP.send(.GET, server.baseURL + "/no/such/path").status == 404)
        #expect(server.stop() == 0)
    }

    @Test func anEmptyCursorIsTheFirstPage() async throws {
        let data = try makeTemporaryDirectory("cursor")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data)
        _ = try await HTTP.create(server.baseURL)
        let first = try await HTTP.send(.GET, server.baseURL + AnnouncementsAPI.collectionPath)
        let empty = try await HTTP.send(.GET, server.baseURL + AnnouncementsAPI.collectionPath + "?cursor=")
        #expect(empty.status == 200)
        #expect(empty.body == first.body)
        #expect(try await HTTP.send(.GET, server.baseURL + AnnouncementsAPI.collectionPath + "?cursor=not-ours").status == 400)
        #expect(server.stop() == 0)
    }

    @Test func eachRequestLogLineCarriesTheClientAddressAndNothingSecret() async throws {
        let data = try makeTemporaryDirectory("request-log")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data, arguments: ["--log-level", "info", "--trusted-proxy", "127.0.0.1"])
        let created = try await HTTP.create(server.baseURL)
        _ = try await HTTP.send(.GET, server.baseURL + "/health", headers: [("X-Forwarded-For", "203.0.113.9")])
        _ = try await HTTP.upload(try TestImages.bytes("jpeg-baseline.jpg"), base: server.baseURL, to: created)
        #expect(server.stop() == 0)
        let lines = server.log.split(separator: "\n")
        #expect(lines.contains { $0.contains("client=203.0.113.9") && $0.contains("GET /health 200") }, "\(server.log)")
        #expect(lines.contains { $0.contains("client=127.0.0.1") && $0.contains("POST /api/v1/announcements 201") })
        #expect(!server.log.contains(created.managementPassword))
        #expect(!server.log.contains(created.credentials.authorizationHeader))
    }
}
