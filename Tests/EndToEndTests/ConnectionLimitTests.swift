#if canImport(Glibc)
import Glibc
#endif
import Foundation
import NIOCore
import PetSpot
import Testing

/// Slow, idle and oversized clients against the built `petspot-server`, over raw sockets:
/// each must lose its connection in bounded time, get the contract's error body where an answer
/// is possible, and never hold the server (or its shutdown).
@Suite struct ConnectionLimitTests {
    static func port(_ server: ServerProcess) -> Int { Int(server.baseURL.split(separator: ":").last!)! }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    @Test func idleSlowlorisAndKeepAliveConnectionsAreClosed() async throws {
        let data = try makeTemporaryDirectory("timeouts")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data, arguments: ["--request-head-timeout", "1", "--keep-alive-timeout", "1"])
        let port = Self.port(server)
        let start = ContinuousClock.now
        let idle = try RawConnection(port: port)
        let slowloris = try RawConnection(port: port)
        try slowloris.send(Array("GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ".utf8))
        let keepAlive = try RawConnection(port: port)
        try keepAlive.send(Array("GET /health HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(try keepAlive.receiveHead().hasPrefix("HTTP/1.1 200"))

        let slow = slowloris.receiveUntilClosed(timeout: 10)
        #expect(slow.closed)
        let answer = String(decoding: slow.bytes, as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 408"), "\(answer)")
        #expect(answer.contains(#""code":"request_timeout""#))
        #expect(idle.receiveUntilClosed(timeout: 10).closed)
        let kept = keepAlive.receiveUntilClosed(timeout: 10)
        #expect(kept.closed)
        #expect(Self.seconds(since: start) < 15)
        #expect(server.stop() == 0)
    }

    @Test func aBodyThatStopsArrivingIsCut() async throws {
        let data = try makeTemporaryDirectory("stalled-body")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data, arguments: ["--min-body-rate", "2000", "--log-level", "notice"])
        let created = try await HTTP.create(server.baseURL)
        let connection = try RawConnection(port: Self.port(server))
        try connection.send(RawConnection.uploadHead(to: created, contentLength: 1_000_000) + Array("--b\r\n".utf8))
        let start = ContinuousClock.now
        #expect(connection.receiveUntilClosed(timeout: 30).closed)
        let elapsed = Self.seconds(since: start)
        #expect(elapsed > 5 && elapsed < 40, "cut after \(elapsed) s")
        // The partial upload's temporary file goes with it.
        var left = try FileManager.default.contentsOfDirectory(atPath: data + "/tmp")
        for _ in 0..<50 where !left.isEmpty {
            try await Task.sleep(for: .milliseconds(100))
            left = try FileManager.default.contentsOfDirectory(atPath: data + "/tmp")
        }
        #expect(left.isEmpty)
        #expect(server.stop() == 0)
        #expect(server.log.contains("request body slower than 2000 bytes/s"), "\(server.log)")
    }

    @Test func aRefusedUploadClosesTheConnectionInsteadOfReadingTheBody() async throws {
        let data = try makeTemporaryDirectory("early-refusal")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data)
        let created = try await HTTP.create(server.baseURL)
        let connection = try RawConnection(port: Self.port(server))
        try connection.send(RawConnection.uploadHead(to: created, contentLength: 1_000_000_000))
        let head = try connection.receiveHead()
        #expect(head.hasPrefix("HTTP/1.1 413"), "\(head)")
        #expect(head.lowercased().contains("connection: close"))
        // Keep sending: the server must stop taking bytes within a few seconds, not after 1 GB.
        let start = ContinuousClock.now
        var sent = 0
        let chunk = [UInt8](repeating: 0, count: 65536)
        while Self.seconds(since: start) < 20 {
            guard (try? connection.send(chunk)) != nil else { break }
            sent += chunk.count
        }
        #expect(Self.seconds(since: start) < 15, "still accepting after \(sent >> 20) MB")
        #expect(sent < 200 << 20)
        #expect(server.stop() == 0)
    }

    @Test func expectContinueIsAnsweredOnlyWhenTheBodyWillBeRead() async throws {
        let data = try makeTemporaryDirectory("continue")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data)
        let created = try await HTTP.create(server.baseURL)
        let body = HTTP.multipart(try TestImages.bytes("jpeg-baseline.jpg"), boundary: "b")
        func head(_ authorization: String) -> [UInt8] {
            RawConnection.uploadHead(to: created, authorization: authorization, contentLength: body.count,
                                     extraHeaders: "Expect: 100-continue\r\n")
        }
        let good = try RawConnection(port: Self.port(server))
        try good.send(head(created.credentials.authorizationHeader))
        #expect(try good.receiveHead().hasPrefix("HTTP/1.1 100 Continue"))
        try good.send(body)
        #expect(try good.receiveHead().hasPrefix("HTTP/1.1 201"))

        let wrong = try RawConnection(port: Self.port(server))
        let password = created.managementPassword == "000000" ? "111111" : "000000"
        try wrong.send(head(AnnouncementCredentials(id: created.id, managementPassword: password).authorizationHeader))
        let refused = try wrong.receiveHead()
        #expect(refused.hasPrefix("HTTP/1.1 401"), "\(refused)")

        let create = try RawConnection(port: Self.port(server))
        let json = Array(HTTP.announcementJSON.utf8)
        try create.send(Array("POST /api/v1/announcements HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Type: application/json\r\nContent-Length: \(json.count)\r\n\r\n".utf8))
        #expect(try create.receiveHead().hasPrefix("HTTP/1.1 100 Continue"))
        try create.send(json)
        #expect(try create.receiveHead().hasPrefix("HTTP/1.1 201"))
        #expect(server.stop() == 0)
    }

    @Test func overLongTargetsAndHeadsGet414And431WithTheErrorBody() async throws {
        let data = try makeTemporaryDirectory("long-heads")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data)
        for (request, status, code) in [
            ("GET /api/v1/announcements?cursor=\(String(repeating: "a", count: 10_000)) HTTP/1.1\r\nHost: x\r\n\r\n", 414, "uri_too_long"),
            ("GET /\(String(repeating: "a", count: 100_000)) HTTP/1.1\r\nHost: x\r\n\r\n", 414, "uri_too_long"),
            ("GET /health HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "b", count: 40_000))\r\n\r\n", 431, "headers_too_large"),
            ("GET /health HTTP/1.1\r\nHost: x\r\n" + (0..<300).map { "X-H\($0): v\r\n" }.joined() + "\r\n", 431, "headers_too_large"),
            ("BREW /health HTCPCP/1.0\r\n\r\n", 400, "malformed_request"),
        ] {
            let connection = try RawConnection(port: Self.port(server))
            try? connection.send(Array(request.utf8))
            let answer = connection.receiveUntilClosed(timeout: 10)
            let text = String(decoding: answer.bytes, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 \(status)"), "\(text.prefix(300))")
            #expect(text.contains(#""code":"\#(code)""#))
            #expect(text.lowercased().contains("content-type: application/json"))
            #expect(answer.closed)
        }
        // The server is fine afterwards.
        #expect(try await HTTP.send(.GET, server.baseURL + "/health").status == 200)
        #expect(server.stop() == 0)
    }

    @Test func connectionsBeyondTheCapWaitAndTheLimitIsLogged() async throws {
        let data = try makeTemporaryDirectory("cap")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data, arguments: ["--max-connections", "4", "--request-head-timeout", "3"])
        // Timed from before the idle ones open: on a loaded machine they may time out (3 s) before
        // the fifth is even sent, but it cannot be answered before they do.
        let start = ContinuousClock.now
        let held = try (0..<4).map { _ in try RawConnection(port: Self.port(server)) }
        // All four accepted (the server says so when the fourth opens): from then on it takes no
        // more. Before then a loaded server may take several from its queue in one go.
        for _ in 0..<200 where !server.log.contains("the --max-connections limit") {
            try await Task.sleep(for: .milliseconds(50))
        }
        // The fifth is accepted only once the idle ones time out, and then answered.
        let health = try await HTTP.send(.GET, server.baseURL + "/health", timeout: .seconds(20))
        #expect(health.status == 200)
        #expect(Self.seconds(since: start) > 2.5)
        #expect(held.allSatisfy { $0.receiveUntilClosed(timeout: 5).closed })
        #expect(server.stop() == 0)
        #expect(server.log.contains("the --max-connections limit"), "\(server.log)")
    }

    @Test func shutdownWaitsForRequestsInFlightUpToTheGraceThenCutsThem() async throws {
        let data = try makeTemporaryDirectory("grace")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data, arguments: ["--shutdown-grace", "20", "--min-body-rate", "0", "--log-level", "notice"])
        let created = try await HTTP.create(server.baseURL)
        let body = HTTP.multipart(try TestImages.bytes("jpeg-baseline.jpg"), boundary: "b")
        func start() throws -> RawConnection {
            let connection = try RawConnection(port: Self.port(server))
            try connection.send(RawConnection.uploadHead(to: created, contentLength: body.count) + Array(body.prefix(100)))
            return connection
        }
        let finishing = try start()
        let stalled = try start()
        // Both are in flight once their bodies are being received into tmp/ (however loaded the machine).
        try await ServerProcess.waitForUploadFiles(2, in: data)
        #expect(try FileManager.default.contentsOfDirectory(atPath: data + "/tmp").count == 2)
        let began = ContinuousClock.now
        server.process.send(SIGTERM)
        try await Task.sleep(for: .milliseconds(500))
        try finishing.send(Array(body.dropFirst(100)))
        #expect(try finishing.receiveHead().hasPrefix("HTTP/1.1 201"))
        #expect(server.stop() == 0)
        let took = Self.seconds(since: began)
        #expect(took > 19 && took < 60, "shutdown took \(took) s")
        #expect(stalled.receiveUntilClosed(timeout: 5).closed)
        #expect(server.log.contains("after the 20 s shutdown grace were cut"), "\(server.log)")
    }
}
