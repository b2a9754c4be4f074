import Foundation
import NIOCore
import PetSpot
import Testing
@testable import PetSpotServer

/// What an operator runs the server with: metrics on their own port, JSON logs with a request
/// id that is also the `X-Request-ID` header, and every option from a `PETSPOT_*` variable.
@Suite struct OperationsTests {
    @Test func metricsAreOnTheirOwnPortAndCountRequestsByRouteAndStatus() async throws {
        let data = try makeTemporaryDirectory("metrics")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data, arguments: ["--metrics-port", "0"])
        let created = try await HTTP.create(server.baseURL)
        #expect(try await HTTP.upload(try TestImages.bytes("sample-photo.jpg"), base: server.baseURL, to: created).status == 201)
        _ = try await HTTP.send(.GET, server.baseURL + AnnouncementsAPI.announcementPath(id: AnnouncementID(rawValue: "no-such-id")!))
        // The public port does not serve them.
        #expect(try await HTTP.send(.GET, server.baseURL + "/metrics").status == 404)
        let line = try #require(server.log.split(separator: "\n").first { $0.hasPrefix("petspot-server metrics on ") })
        let metricsURL = String(line.split(separator: " ").last ?? "")
        let reply = try await HTTP.send(.GET, metricsURL)
        #expect(reply.status == 200)
        #expect(reply.headers["Content-Type"].first?.hasPrefix("text/plain; version=0.0.4") == true)
        let text = String(decoding: reply.body, as: UTF8.self)
        #expect(text.contains(#"petspot_http_requests_total{route="/api/v1/announcements",method="POST",status="201"} 1"#), "\(text)")
        #expect(text.contains(#"petspot_http_requests_total{route="/api/v1/announcements/{id}",method="GET",status="404"} 1"#))
        #expect(text.contains(#"petspot_http_request_duration_seconds_bucket{route="/api/v1/announcements/{id}/photos",method="POST""#))
        #expect(text.contains("petspot_photo_processing_seconds_count"))
        #expect(text.contains("petspot_photo_output_bytes_sum"))
        #expect(text.contains("petspot_uploads_in_flight 0.0"))
        // Raw paths (ids) never become labels.
        #expect(!text.contains(created.id.rawValue))
        #expect(server.stop() == 0)
    }

    @Test func jsonLogsCarryTheRequestIDTheClientSees() async throws {
        let data = try makeTemporaryDirectory("jsonlog")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data, arguments: ["--log-format", "json", "--log-level", "info"])
        let created = try await HTTP.create(server.baseURL)
        let upload = try await HTTP.upload(try TestImages.bytes("sample-photo.jpg"), base: server.baseURL, to: created)
        let id = try #require(upload.headers["X-Request-ID"].first)
        #expect((8...64).contains(id.count) && id.allSatisfy(\.isHexDigit), "\(id)")
        // A client cannot choose the id it is logged under.
        let forged = try await HTTP.send(.GET, server.baseURL + "/health", headers: [("X-Request-ID", "forged-id-1")])
        #expect(forged.headers["X-Request-ID"].first != "forged-id-1")
        #expect(server.stop() == 0)
        var requestLines: [[String: String]] = []
        for line in server.log.split(separator: "\n") where line.hasPrefix("{") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String], "\(line)")
            #expect(object["time"] != nil && object["level"] != nil && object["message"] != nil)
            if object["status"] != nil { requestLines.append(object) }
        }
        let uploadLine = try #require(requestLines.first { $0["request_id"] == id })
        #expect(uploadLine["status"] == "201")
        #expect(uploadLine["method"] == "POST")
        #expect(uploadLine["path"] == AnnouncementsAPI.photosPath(id: created.id))
        #expect(requestLines.count == 3)
        #expect(!server.log.contains(created.managementPassword) && !server.log.contains("Basic "))
    }

    @Test func aTrustedProxysRequestIDIsKept() async throws {
        let data = try makeTemporaryDirectory("proxyid")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data, arguments: ["--trusted-proxy", "127.0.0.1"])
        let kept = try await HTTP.send(.GET, server.baseURL + "/health", headers: [("X-Request-ID", "nginx-4f2a9c")])
        #expect(kept.headers["X-Request-ID"].first == "nginx-4f2a9c")
        // Not a short token: replaced.
        let odd = try await HTTP.send(.GET, server.baseURL + "/health", headers: [("X-Request-ID", "a b\"c")])
        #expect(odd.headers["X-Request-ID"].first != "a b\"c")
        #expect(server.stop() == 0)
    }

    @Test func everyOptionCanComeFromTheEnvironmentAndTheCommandLineWins() async throws {
        let data = try makeTemporaryDirectory("environment")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data, arguments: ["--create-rate", "2/hour"],
                                       environment: ["PETSPOT_MAX_PHOTO_BYTES": "2000", "PETSPOT_CREATE_RATE": "100",
                                                     "PETSPOT_TRUSTED_PROXY": "10.0.0.1, 127.0.0.1"])
        // PETSPOT_MAX_PHOTO_BYTES=2000: the upload is too large.
        let created = try await HTTP.create(server.baseURL)
        #expect(try await HTTP.upload(try TestImages.bytes("sample-photo.jpg"), base: server.baseURL, to: created).status == 413)
        // --create-rate 2/hour beat PETSPOT_CREATE_RATE=100: the third create is refused.
        _ = try await HTTP.create(server.baseURL)
        let third = try await HTTP.send(.POST, server.baseURL + AnnouncementsAPI.collectionPath, headers: [("Content-Type", "application/json")],
                                        body: .bytes(ByteBuffer(string: HTTP.announcementJSON)))
        #expect(third.status == 429)
        // PETSPOT_TRUSTED_PROXY (a list): X-Forwarded-For from 127.0.0.1 names the client, who has its own rate.
        let forwarded = try await HTTP.send(.POST, server.baseURL + AnnouncementsAPI.collectionPath,
                                            headers: [("Content-Type", "application/json"), ("X-Forwarded-For", "203.0.113.9")],
                                            body: .bytes(ByteBuffer(string: HTTP.announcementJSON)))
        #expect(forwarded.status == 201)
        #expect(server.stop() == 0)
        // The help names the variables.
        let help = try await runProcess(ServerProcess.binary.path, ["serve", "--help"])
        #expect(help.contains("PETSPOT_DATABASE_URL"))
    }
}
