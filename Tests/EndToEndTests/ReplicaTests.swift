import AsyncHTTPClient
import Foundation
import NIOCore
import PetSpot
import PhotoPipeline
import Testing
import TestEngines
@testable import PetSpotServer

/// Several `petspot-server` processes on one PostgreSQL database and one S3 bucket (real
/// engines, started by the tests): what one process guaranteed must hold across them.
@Suite(.serialized, .enabled(if: TestBackend.configured == .embedded, "backend-independent: run once"))
struct ReplicaTests {
    @Test func theSameIdempotencyKeyOnTwoReplicasAtOnceMakesOneAnnouncement() async throws {
        let storage = try SharedStorage.fresh("idempotency")
        let first = try storage.replica("idem-a"), second = try storage.replica("idem-b")
        let body = ByteBuffer(string: HTTP.announcementJSON)
        for round in 0..<20 {
            let key = "replica-race-\(round)-\(UUID().uuidString)"
            let headers = [("Content-Type", "application/json"), ("Idempotency-Key", key)]
            async let a = HTTP.send(.POST, first.baseURL + AnnouncementsAPI.collectionPath, headers: headers, body: .bytes(body))
            async let b = HTTP.send(.POST, second.baseURL + AnnouncementsAPI.collectionPath, headers: headers, body: .bytes(body))
            let (one, two) = try await (a, b)
            #expect(one.status == 201 && two.status == 201, "\(one.status) \(two.status)")
            let x = try PetSpotJSON.decode(AnnouncementResponse.self, from: Data(one.body))
            let y = try PetSpotJSON.decode(AnnouncementResponse.self, from: Data(two.body))
            #expect(x.id == y.id && x.managementPassword == y.managementPassword)
        }
        #expect(try await storage.sql("SELECT count(*) FROM announcement") == "20")
        #expect(try await storage.sql("SELECT count(*) FROM idempotency_key") == "20")
        #expect(first.stop() == 0 && second.stop() == 0)
    }

    @Test func guessesSpreadOverThreeReplicasGetTenChecksInAll() async throws {
        let storage = try SharedStorage.fresh("throttle")
        let replicas = try (0..<3).map { try storage.replica("throttle-\($0)", arguments: ["--log-level", "notice"]) }
        let created = try await HTTP.create(replicas[0].baseURL)
        let codes = try await withThrowingTaskGroup(of: Int.self) { group in
            for n in 0..<150 {
                let base = replicas[n % 3].baseURL
                group.addTask {
                    try await PasswordThrottleTests.upload(base, to: created, password: PasswordThrottleTests.wrongPassword(for: created, n * 2))
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        let counts = Dictionary(grouping: codes, by: { $0 }).mapValues(\.count)
        #expect(counts[401] == 10, "\(counts)")
        #expect(counts[429] == 140, "\(counts)")
        #expect(try await storage.sql("SELECT count(*) FROM auth_attempt") == "10")
        for replica in replicas { #expect(replica.stop() == 0) }
    }

    @Test func uploadsRacingOnTwoReplicasLeaveOnePhotoThatExists() async throws {
        let storage = try SharedStorage.fresh("photorace")
        let first = try storage.replica("race-a"), second = try storage.replica("race-b")
        let photos = [try TestImages.bytes("sample-photo.jpg"), try TestImages.bytes("jpeg-baseline.jpg")]
        let created = try await HTTP.create(first.baseURL)
        for _ in 0..<4 {
            async let a = HTTP.upload(photos[0], base: first.baseURL, to: created)
            async let b = HTTP.upload(photos[1], base: second.baseURL, to: created)
            let (one, two) = try await (a, b)
            #expect(one.status == 201 && two.status == 201, "\(one.status) \(two.status)")
        }
        let details = try await HTTP.send(.GET, first.baseURL + AnnouncementsAPI.announcementPath(id: created.id))
        let url = try #require(try PetSpotJSON.decode(PetDetails.self, from: Data(details.body)).photoUrl)
        let key = String(url.split(separator: "/").last ?? "")
        let served = try await HTTP.send(.GET, second.baseURL + "/photos/" + key)
        #expect(served.status == 200)
        #expect(SigV4Signer.hexSHA256(served.body) + ".jpg" == key)
        // The loser of each race was replaced and removed: only the photo in use is left.
        #expect(try await storage.bucket.keys() == [key])
        #expect(first.stop() == 0 && second.stop() == 0)
    }

    @Test func threeReplicasStartingTogetherMigrateOnce() async throws {
        let storage = try SharedStorage.fresh("migrate")
        let replicas = try await withThrowingTaskGroup(of: ServerProcess.self) { group in
            for index in 0..<3 {
                group.addTask { try await Task.detached { try storage.replica("start-\(index)", arguments: ["--log-level", "notice"]) }.value }
            }
            return try await group.reduce(into: [ServerProcess]()) { $0.append($1) }
        }
        let every = PostgresSchema.migrations.map { String($0.version) }.joined(separator: ",")
        #expect(try await storage.sql("SELECT string_agg(version::text, ',' ORDER BY version) FROM schema_migration") == every)
        let logs = replicas.map(\.log)
        #expect(logs.filter { $0.contains("migrated to version") }.count == 1, "\(logs)")
        #expect(logs.filter { $0.contains("is up to date") }.count == 2)
        // No log line shows the database password.
        let password = String(storage.databaseURL.split(separator: ":")[2].split(separator: "@")[0])
        #expect(logs.allSatisfy { !$0.contains(password) })
        for replica in replicas { #expect(replica.stop() == 0) }
    }

    @Test func anOwnersSessionMadeOnOneReplicaHoldsOnAnotherUntilSignedOut() async throws {
        let storage = try SharedStorage.fresh("session")
        let first = try storage.replica("session-a"), second = try storage.replica("session-b")
        let created = try await ManageReportTests.createMissingDog(first.baseURL)
        let manage = "/pets/\(created.id.rawValue)/manage"
        var browser = WebSession(base: first.baseURL)
        let cookie = try await ManageReportTests.signIn(&browser, created, headers: [("X-Forwarded-Proto", "https")])
        // No proxy is trusted here: a client's own X-Forwarded-Proto does not make the cookie Secure.
        #expect(!cookie.contains("Secure"))
        // The same browser on the other replica (a balancer's choice): signed in, and its forms work there.
        var there = WebSession(base: second.baseURL)
        there.cookies = browser.cookies
        try await there.get(manage)
        #expect(there.html.contains("Our pet is home"), "\(there.html)")
        let reply = try await there.post(manage + "/status", there.hiddenFields(of: manage + "/status") + [("action", "reunited")])
        #expect(reply.status == 303)
        #expect(try await ManageReportTests.details(first.baseURL, created.id).1?.closedOutcome == .reunited)
        // Signed out on one replica, the session is over on the other too.
        try await there.get(manage)
        #expect(try await there.post(manage + "/sign-out", there.hiddenFields(of: manage + "/sign-out")).status == 303)
        try await browser.get(manage)
        #expect(browser.html.contains("You were signed out"))
        #expect(first.stop() == 0 && second.stop() == 0)
    }

    /// The issue's multi-replica run: scripts/load-server.py starts PostgreSQL, the S3 emulator,
    /// three replicas and nginx, drives creates and uploads through nginx, kills replica 2 with
    /// SIGKILL mid-run, and checks the listing, the tables and the bucket at the end.
    @Test func threeReplicasBehindNginxLoseNothingWhenOneIsKilled() async throws {
        let script = S3Emulator.script.deletingLastPathComponent().appendingPathComponent("load-server.py").path
        let output = try await runProcess("/usr/bin/env", [
            "python3", script, "--binary", ServerProcess.binary.path, "--photo", TestImages.folder.appendingPathComponent("sample-photo.jpg").path,
            "--backend", "postgres-s3", "--replicas", "3", "--kill-replica-after", "1.5", "--clients", "12", "--pairs", "5", "--json",
        ])
        let line = try #require(output.split(separator: "\n").last { $0.hasPrefix("{") }, "\(output)")
        struct Summary: Decodable {
            var pairs: Int
            var error_count: Int
            var errors: [String]
            var problems: [String]
            var repeated_keys: Int
            var storage: [String: Int]
            var killed_replica: Int?
        }
        let summary = try JSONDecoder().decode(Summary.self, from: Data(line.utf8))
        #expect(summary.error_count == 0, "\(summary.errors)")
        #expect(summary.problems.isEmpty, "\(summary.problems)")
        #expect(summary.pairs == 60)
        #expect(summary.storage["rows"] == 60)
        #expect(summary.repeated_keys == 12)
        #expect(summary.killed_replica == 2)
    }
}
