import AsyncHTTPClient
import Foundation
import NIOCore
import PetSpot
import Testing

/// The password throttle under attack, against the built `petspot-server` over real HTTP:
/// concurrent bursts, the right password hidden in a burst, many addresses behind a trusted
/// proxy, and what the log says.
@Suite(.serialized) struct PasswordThrottleTests {
    /// A client that really opens one connection per request in flight (AsyncHTTPClient's
    /// default pool would queue them eight at a time and hide the race).
    static let burstClient: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 512
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    static func upload(_ base: String, to created: AnnouncementResponse, password: String,
                       forwardedFor: String? = nil) async throws -> Int {
        var request = HTTPClientRequest(url: base + AnnouncementsAPI.photosPath(id: created.id))
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "multipart/form-data; boundary=e2e-boundary-91c2")
        request.headers.add(name: "Authorization", value: AnnouncementCredentials(id: created.id, managementPassword: password).authorizationHeader)
        if let forwardedFor { request.headers.add(name: "X-Forwarded-For", value: forwardedFor) }
        request.body = .bytes(ByteBuffer(bytes: HTTP.multipart(try TestImages.bytes("jpeg-baseline.jpg"))))
        let response = try await burstClient.execute(request, timeout: .seconds(120))
        _ = try await response.body.collect(upTo: 1 << 20)
        return Int(response.status.code)
    }

    static func wrongPassword(for created: AnnouncementResponse, _ n: Int = 0) -> String {
        let candidate = String(format: "%06d", n)
        return candidate == created.managementPassword ? String(format: "%06d", n + 1) : candidate
    }

    /// Sends every password at once; the status codes.
    static func burst(_ base: String, to created: AnnouncementResponse, passwords: [String]) async throws -> [Int] {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for password in passwords {
                group.addTask { try await upload(base, to: created, password: password) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test func twoHundredConcurrentGuessesGetTenChecks() async throws {
        let data = try makeTemporaryDirectory("throttle-burst")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data, arguments: ["--log-level", "notice"])
        let created = try await HTTP.create(server.baseURL)
        let codes = try await Self.burst(server.baseURL, to: created, passwords: (0..<200).map { Self.wrongPassword(for: created, $0 * 2) })
        #expect(codes.filter { $0 == 401 }.count == 10, "\(Dictionary(grouping: codes, by: { $0 }).mapValues(\.count))")
        #expect(codes.filter { $0 == 429 }.count == 190)
        // Without credentials it is 401, never 429, even now.
        let anonymous = try await HTTP.send(.POST, server.baseURL + AnnouncementsAPI.photosPath(id: created.id),
                                            headers: [("Content-Type", "multipart/form-data; boundary=x")])
        #expect(anonymous.status == 401)
        // The lockout is logged once with the id and the address, never a password.
        #expect(server.stop() == 0)
        let lines = server.log.split(separator: "\n").filter { $0.contains("password attempts locked") }
        #expect(lines.count == 1, "\(server.log.suffix(3000))")
        #expect(lines.first?.contains(created.id.rawValue) == true && lines.first?.contains("client=127.0.0.1") == true, "\(lines)")
        #expect(!server.log.contains(created.managementPassword))
    }

    @Test func theRightPasswordInABurstOfWrongOnesIsOneOfTenChecks() async throws {
        let data = try makeTemporaryDirectory("throttle-hidden")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data)
        let created = try await HTTP.create(server.baseURL)
        var passwords = (0..<199).map { Self.wrongPassword(for: created, $0 * 2) }
        passwords.insert(created.managementPassword, at: 100)
        let codes = try await Self.burst(server.baseURL, to: created, passwords: passwords)
        let checked = codes.filter { $0 == 401 || $0 == 201 }.count
        #expect(checked == 10, "\(Dictionary(grouping: codes, by: { $0 }).mapValues(\.count))")
        // The rest are refused unchecked: 429, or 503 when more uploads arrive at once than the
        // server admits (the attempt is given back, and the throttle still answers the retry).
        #expect(codes.filter { $0 == 429 || $0 == 503 }.count == 190, "\(Dictionary(grouping: codes, by: { $0 }).mapValues(\.count))")
        // Only when the right one got one of the ten slots did it get in.
        #expect(codes.filter { $0 == 201 }.count <= 1)
        #expect(server.stop() == 0)
    }

    @Test func manyAddressesHitTheAnnouncementCeilingButNotTheOwner() async throws {
        let data = try makeTemporaryDirectory("throttle-ceiling")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data, arguments: [
            "--trusted-proxy", "127.0.0.1", "--auth-attempts-per-client", "3", "--auth-attempts-per-announcement", "12",
            "--log-level", "notice"])
        // The owner creates it from 203.0.113.7, as the proxy says.
        let reply = try await HTTP.send(.POST, server.baseURL + AnnouncementsAPI.collectionPath,
                                        headers: [("Content-Type", "application/json"), ("X-Forwarded-For", "203.0.113.7")],
                                        body: .bytes(ByteBuffer(string: HTTP.announcementJSON)))
        let created = try PetSpotJSON.decode(AnnouncementResponse.self, from: Data(reply.body))
        // Each address gets its own 3 checks, until all addresses together reach 12.
        var codes: [Int] = []
        for address in 1...6 {
            for attempt in 0..<4 {
                codes.append(try await Self.upload(server.baseURL, to: created, password: Self.wrongPassword(for: created, attempt * 2),
                                                   forwardedFor: "198.51.100.\(address)"))
            }
        }
        #expect(codes.filter { $0 == 401 }.count == 12, "\(codes)")
        #expect(Array(codes.prefix(4)) == [401, 401, 401, 429])
        // A new address, even with the right password, waits; the owner's address does not.
        #expect(try await Self.upload(server.baseURL, to: created, password: created.managementPassword, forwardedFor: "192.0.2.50") == 429)
        #expect(try await Self.upload(server.baseURL, to: created, password: created.managementPassword, forwardedFor: "203.0.113.7") == 201)
        // A forged hop to the left of the proxy's own is not believed over the real one.
        #expect(try await Self.upload(server.baseURL, to: created, password: created.managementPassword,
                                      forwardedFor: "203.0.113.7, 192.0.2.51") == 429)
        #expect(server.stop() == 0)
        #expect(server.log.contains("password attempts locked for all addresses"), "\(server.log.suffix(3000))")
    }

    @Test func guessesSpreadOverManyAnnouncementsStopAtTheAddressCap() async throws {
        let data = try makeTemporaryDirectory("throttle-address")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data, arguments: ["--trusted-proxy", "127.0.0.1",
                                                                        "--auth-attempts-per-address", "5", "--log-level", "notice"])
        var announcements: [AnnouncementResponse] = []
        for _ in 0..<4 { announcements.append(try await HTTP.create(server.baseURL)) }
        // Two guesses on each, from one address: five checks in all, then 429 everywhere.
        var codes: [Int] = []
        for created in announcements {
            for n in 0..<2 {
                codes.append(try await Self.upload(server.baseURL, to: created, password: Self.wrongPassword(for: created, n * 2),
                                                   forwardedFor: "198.51.100.7"))
            }
        }
        #expect(codes == [401, 401, 401, 401, 401, 429, 429, 429], "\(codes)")
        let last = try #require(announcements.last)
        #expect(try await Self.upload(server.baseURL, to: last, password: last.managementPassword, forwardedFor: "198.51.100.7") == 429)
        // Another address is not held by it, and the owners' own address never is.
        #expect(try await Self.upload(server.baseURL, to: last, password: Self.wrongPassword(for: last), forwardedFor: "203.0.113.9") == 401)
        #expect(try await Self.upload(server.baseURL, to: last, password: last.managementPassword) == 201)
        #expect(server.stop() == 0)
        #expect(server.log.contains("password attempts locked for this address on every announcement"), "\(server.log.suffix(2000))")
    }

    @Test func forwardedForIsIgnoredWithoutATrustedProxy() async throws {
        let data = try makeTemporaryDirectory("throttle-xff")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data)
        let created = try await HTTP.create(server.baseURL)
        var codes: [Int] = []
        for attempt in 0..<11 {
            codes.append(try await Self.upload(server.baseURL, to: created, password: Self.wrongPassword(for: created, attempt * 2),
                                               forwardedFor: "198.51.100.\(attempt + 1)"))
        }
        #expect(codes == Array(repeating: 401, count: 10) + [429])
        #expect(server.stop() == 0)
    }
}
