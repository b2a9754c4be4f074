import AsyncHTTPClient
import Foundation
import NIOCore
import PetSpot
import Synchronization
import Testing
import TestEngines
@testable import PetSpotServer

/// What clients see while PostgreSQL restarts or the object store fails: 503 with Retry-After,
/// never a hang, never a 500, nothing half-recorded; and service again once the engine is back.
@Suite(.serialized, .enabled(if: TestBackend.configured == .embedded, "backend-independent: run once"))
struct StorageFaultTests {
    @Test func aDatabaseRestartDuringLoadGives503sAndNoHang() async throws {
        // A cluster of its own: a restart must not disturb the other suites' servers.
        let cluster = try await Task.detached { try PostgresCluster() }.value
        let engines = try TestBackend.engines.get()
        let database = try await cluster.database("restart")
        let data = try makeTemporaryDirectory("db-restart")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(
            dataDirectory: data,
            arguments: ["--photo-store", "s3://\(engines.s3.bucket)/restart", "--s3-endpoint", engines.s3.endpoint,
                        "--database-timeout", "2"],
            environment: ["PETSPOT_DATABASE_URL": database, "AWS_ACCESS_KEY_ID": engines.s3.credentials.accessKeyID,
                          "AWS_SECRET_ACCESS_KEY": engines.s3.credentials.secretAccessKey],
            backend: .embedded)
        let created = try await HTTP.create(server.baseURL)
        let base = server.baseURL
        let finished = Flag()
        let refused = Flag()
        // Four clients create and read until a second after the restart; the database stops at
        // once (connections cut) and stays down until a client has been refused (at least 4 s,
        // longer than the 2 s a request waits for a connection; on a loaded machine, as long as
        // it takes for a request to get that far).
        async let restarted: (Int, String, Int) = Task.detached {
            try await Task.sleep(for: .seconds(2))
            try cluster.stop()
            try await Task.sleep(for: .seconds(1))
            // Down: not ready, naming the database; alive all the same.
            let health = try await HTTP.send(.GET, base + "/health", timeout: .seconds(45))
            let live = try await HTTP.send(.GET, base + "/health/live", timeout: .seconds(45))
            try await Task.sleep(for: .seconds(3))
            let deadline = ContinuousClock.now + .seconds(60)
            while !refused.isSet && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(100)) }
            try cluster.start()
            try await Task.sleep(for: .seconds(1))
            finished.set()
            return (health.status, String(decoding: health.body, as: UTF8.self), live.status)
        }.value
        let answers = try await withThrowingTaskGroup(of: [(Int, String?, Duration)].self) { group in
            for _ in 0..<4 {
                group.addTask {
                    var seen: [(Int, String?, Duration)] = []
                    while !finished.isSet {
                        let sent = ContinuousClock.now
                        let create = try await HTTP.send(.POST, base + AnnouncementsAPI.collectionPath, headers: [("Content-Type", "application/json")],
                                                         body: .bytes(ByteBuffer(string: HTTP.announcementJSON)), timeout: .seconds(45))
                        seen.append((create.status, create.headers["Retry-After"].first, ContinuousClock.now - sent))
                        let read = try await HTTP.send(.GET, base + AnnouncementsAPI.announcementPath(id: created.id), timeout: .seconds(45))
                        seen.append((read.status, read.headers["Retry-After"].first, ContinuousClock.now - sent))
                        if create.status == 503 || read.status == 503 { refused.set() }
                        try await Task.sleep(for: .milliseconds(50))
                    }
                    return seen
                }
            }
            return try await group.reduce(into: [(Int, String?, Duration)]()) { $0 += $1 }
        }
        let (health, healthBody, live) = try await restarted
        #expect(health == 503 && healthBody.contains(#""field":"database""#), "\(health) \(healthBody)")
        #expect(live == 200)
        let statuses = Dictionary(grouping: answers, by: \.0).mapValues(\.count)
        #expect(Set(statuses.keys).isSubset(of: [200, 201, 503]), "\(statuses)")
        #expect((statuses[503] ?? 0) > 0, "the restart was not noticed: \(statuses)")
        #expect(answers.filter { $0.0 == 503 }.allSatisfy { $0.1 == "5" })
        // A create and a read each wait at most the 2 s for a connection (plus bcrypt, and
        // slack for a loaded machine): seconds, not the pool's minute-long reconnect loop.
        #expect(answers.allSatisfy { $0.2 < .seconds(30) }, "an answer took \(answers.map(\.2).max() ?? .zero)")
        // Back to normal: the pool reconnects (with its backoff, so ready may take a few seconds
        // after the engine is), then creates and reads as before.
        #expect(try await HTTP.health(server.baseURL, until: 200, within: .seconds(60)).status == 200)
        let after = try await HTTP.create(server.baseURL)
        #expect(try await HTTP.send(.GET, server.baseURL + AnnouncementsAPI.announcementPath(id: after.id)).status == 200)
        #expect(!server.log.contains(database.split(separator: ":")[2].split(separator: "@")[0]))
        #expect(server.stop() == 0)
    }

    /// A database that stops answering with its connections open (every PostgreSQL process
    /// stopped with SIGSTOP, as a hung host or a partition leaves them): a read on a connection
    /// the pool already holds is answered 503 at the bound, not held for ever; service returns
    /// once the processes do.
    @Test func aDatabaseThatStopsAnsweringGives503WithinTheBound() async throws {
        let cluster = try await Task.detached { try PostgresCluster() }.value
        let database = try await cluster.database("frozen")
        let data = try makeTemporaryDirectory("db-frozen")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data, arguments: ["--database-timeout", "1", "--database-connections", "2"],
                                       environment: ["PETSPOT_DATABASE_URL": database], backend: .embedded)
        let created = try await HTTP.create(server.baseURL)
        // The pool's connections are open and idle after a few reads.
        for _ in 0..<4 {
            #expect(try await HTTP.send(.GET, server.baseURL + AnnouncementsAPI.announcementPath(id: created.id)).status == 200)
        }
        let directory = try await runProcess("/usr/bin/env", ["psql", database, "-At", "-c", "SHOW data_directory"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let backends = try await runProcess("/usr/bin/env", ["psql", database, "-At", "-c",
                                                            "SELECT pid FROM pg_stat_activity WHERE pid <> pg_backend_pid()"])
        let postmaster = try String(contentsOfFile: directory + "/postmaster.pid", encoding: .utf8).split(separator: "\n").first.map(String.init)
        let pids = ([postmaster] + backends.split(separator: "\n").map(String.init)).compactMap { $0.flatMap { pid_t($0) } }
        #expect(pids.count >= 2, "\(pids)")
        for pid in pids { kill(pid, SIGSTOP) }
        let sent = ContinuousClock.now
        let frozen = try await HTTP.send(.GET, server.baseURL + AnnouncementsAPI.announcementPath(id: created.id), timeout: .seconds(60))
        let waited = ContinuousClock.now - sent
        for pid in pids { kill(pid, SIGCONT) }
        #expect(frozen.status == 503, "\(String(decoding: frozen.body, as: UTF8.self))")
        #expect(frozen.headers["Retry-After"].first == "5")
        // The lease's second, then ten lease timeouts for the answer; slack for a loaded machine.
        #expect(waited < .seconds(40), "the read took \(waited)")
        #expect(try await HTTP.health(server.baseURL, until: 200, within: .seconds(60)).status == 200)
        #expect(try await HTTP.send(.GET, server.baseURL + AnnouncementsAPI.announcementPath(id: created.id)).status == 200)
        #expect(server.stop() == 0)
    }

    @Test func aFailingOrStalledPhotoStoreGives503AndRecordsNothing() async throws {
        let storage = try SharedStorage.fresh("s3fault")
        // Faults for PUTs (uploads) and listings (what /health asks the store).
        let proxy = try FaultProxy(upstream: storage.engines.s3.endpoint, faults: [],
                                   matching: { $0.hasPrefix("PUT ") || $0.contains("list-type=2") })
        defer { proxy.close() }
        let server = try storage.replica("s3-fault", arguments: ["--s3-timeout", "1"], s3Endpoint: proxy.baseURL)
        let created = try await HTTP.create(server.baseURL)
        let photo = try TestImages.bytes("sample-photo.jpg")
        // Three 500s: the client's three attempts all fail.
        proxy.inject(Array(repeating: .answer(status: 500), count: 3))
        let failed = try await HTTP.upload(photo, base: server.baseURL, to: created)
        #expect(failed.status == 503, "\(String(decoding: failed.body, as: UTF8.self))")
        #expect(failed.headers["Retry-After"].first == "5")
        // Three stalls past the 1 s timeout: 503 again, in seconds, not minutes.
        proxy.inject(Array(repeating: .stall(seconds: 3), count: 3))
        let sent = ContinuousClock.now
        let stalled = try await HTTP.upload(photo, base: server.baseURL, to: created)
        #expect(stalled.status == 503)
        #expect(ContinuousClock.now - sent < .seconds(15))
        // Nothing half-recorded: the announcement has no photo, the bucket no object.
        let details = try await HTTP.send(.GET, server.baseURL + AnnouncementsAPI.announcementPath(id: created.id))
        #expect(try PetSpotJSON.decode(PetDetails.self, from: Data(details.body)).photoUrl == nil)
        #expect(try await storage.bucket.keys().isEmpty)
        #expect(try await storage.sql("SELECT count(*) FROM announcement WHERE photo_key IS NOT NULL") == "0")
        // A store answering 500 to everything: not ready, naming the photo store.
        proxy.inject(Array(repeating: .answer(status: 500), count: 3))
        let health = try await HTTP.health(server.baseURL, until: 503)
        #expect(health.status == 503 && String(decoding: health.body, as: UTF8.self).contains(#""field":"photos""#))
        #expect(try await HTTP.health(server.baseURL, until: 200).status == 200)
        // Two 500s then success: retried inside the server, the client sees 201.
        proxy.inject(Array(repeating: .answer(status: 500), count: 2))
        let retried = try await HTTP.upload(photo, base: server.baseURL, to: created)
        #expect(retried.status == 201)
        #expect(try await storage.bucket.keys().count == 1)
        #expect(!server.log.contains(storage.engines.s3.credentials.secretAccessKey))
        #expect(server.stop() == 0)
    }
}

/// Text PostgreSQL cannot hold (NUL) is refused alike on every backend.
@Suite struct ControlCharacterTests {
    @Test func aControlCharacterInATextFieldIs400OnEveryBackend() async throws {
        let data = try makeTemporaryDirectory("nul")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data)
        let body = HTTP.announcementJSON.replacingOccurrences(of: #""phone":"0412345678""#, with: #""phone":"0412\u0000345678""#)
        let reply = try await HTTP.send(.POST, server.baseURL + AnnouncementsAPI.collectionPath, headers: [("Content-Type", "application/json")],
                                        body: .bytes(ByteBuffer(string: body)))
        #expect(reply.status == 400)
        #expect(String(decoding: reply.body, as: UTF8.self).contains(#""field":"phone""#))
        #expect(server.stop() == 0)
    }
}

/// A flag one task sets and others read.
final class Flag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}
