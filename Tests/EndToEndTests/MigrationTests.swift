#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestProcesses
import NIOCore
import PetSpot
import Testing
import TestEngines
@testable import PetSpotServer

/// `petspot-server migrate`: an embedded installation made by the real server, copied into
/// PostgreSQL + S3, served by a replica on the copy exactly as before; run twice, and killed
/// half-way and run again, with the same result.
@Suite(.serialized, .enabled(if: TestBackend.configured == .embedded, "backend-independent: run once"))
struct MigrationTests {
    /// An embedded installation with 30 announcements, 10 of them with one of two photos, one
    /// created with an Idempotency-Key; what its listing showed.
    static func makeInstallation() async throws -> (data: String, listing: [PetDetails], created: [AnnouncementResponse], keyed: String) {
        let data = try makeTemporaryDirectory("migrate-source")
        let server = try ServerProcess(dataDirectory: data, backend: .embedded)
        var created: [AnnouncementResponse] = []
        let keyed = "migration-key-\(UUID().uuidString)"
        for index in 0..<30 {
            let headers = [("Content-Type", "application/json")] + (index == 0 ? [("Idempotency-Key", keyed)] : [])
            let reply = try await HTTP.send(.POST, server.baseURL + AnnouncementsAPI.collectionPath, headers: headers,
                                            body: .bytes(ByteBuffer(string: HTTP.announcementJSON)))
            created.append(try PetSpotJSON.decode(AnnouncementResponse.self, from: Data(reply.body)))
        }
        let photos = [try TestImages.bytes("sample-photo.jpg"), try TestImages.bytes("jpeg-baseline.jpg")]
        for index in 0..<10 {
            #expect(try await HTTP.upload(photos[index % 2], base: server.baseURL, to: created[index * 3]).status == 201)
        }
        let listing = try await Self.listing(server.baseURL)
        #expect(server.stop() == 0)
        return (data, listing, created, keyed)
    }

    static func listing(_ base: String) async throws -> [PetDetails] {
        struct Page: Decodable { var data: [PetDetails]; var next_cursor: String? }
        var all: [PetDetails] = []
        var cursor: String?
        repeat {
            let reply = try await HTTP.send(.GET, base + AnnouncementsAPI.collectionPath + "?limit=7" + (cursor.map { "&cursor=\($0)" } ?? ""))
            let page = try PetSpotJSON.decode(Page.self, from: Data(reply.body))
            all += page.data
            cursor = page.next_cursor
        } while cursor != nil
        return all
    }

    static func migrate(_ data: String, into storage: SharedStorage, batchSize: Int = 7) async throws -> String {
        try await runProcess(ServerProcess.binary.path, [
            "migrate", "--from-data-dir", data, "--photo-store", "s3://\(storage.engines.s3.bucket)/\(storage.prefix)",
            "--s3-endpoint", storage.engines.s3.endpoint, "--batch-size", String(batchSize),
        ], environment: storage.environment)
    }

    @Test func anInstallationMovesWholeAndAGainRunChangesNothing() async throws {
        let source = try await Self.makeInstallation()
        defer { try? FileManager.default.removeItem(atPath: source.data) }
        let storage = try SharedStorage.fresh("migration")
        let first = try await Self.migrate(source.data, into: storage)
        #expect(first.contains("30 announcement(s) (30 new) and 2 photo(s) (2 uploaded)"), "\(first)")
        #expect(first.contains("checked: 30 of 30 announcements and 2 of 2 photos"))
        #expect(!first.contains(storage.databaseURL.split(separator: "@")[0].split(separator: ":").last ?? "-"))
        let again = try await Self.migrate(source.data, into: storage)
        #expect(again.contains("30 announcement(s) (0 new) and 2 photo(s) (0 uploaded)"), "\(again)")
        #expect(try await storage.sql("SELECT count(*), count(DISTINCT id) FROM announcement") == "30|30")
        #expect(try await storage.sql("SELECT count(*) FROM idempotency_key") == "1")

        // Rows keep their password forms: replicas take the source's keys, as migrate says.
        #expect(first.contains(source.data + "/password-keys"), "\(first)")
        let keys = try String(contentsOfFile: source.data + "/password-keys", encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: ",")
        // A replica on the copy answers as the embedded server did: same ids, order, dates and photos.
        let replica = try storage.replica("migrated", environment: ["PETSPOT_PASSWORD_KEY": keys])
        let listing = try await Self.listing(replica.baseURL)
        #expect(listing.map(\.id) == source.listing.map(\.id))
        #expect(listing.map(\.createdAt) == source.listing.map(\.createdAt))
        #expect(listing.map { $0.photoUrl?.split(separator: "/").last } == source.listing.map { $0.photoUrl?.split(separator: "/").last })
        for details in listing {
            guard let url = details.photoUrl else { continue }
            let served = try await HTTP.send(.GET, replica.baseURL + "/photos/" + (url.split(separator: "/").last ?? ""))
            #expect(served.status == 200)
            #expect(SigV4Signer.hexSHA256(served.body) + ".jpg" == String(url.split(separator: "/").last ?? ""))
        }
        // The password hashes came along: the owner's password still works, a wrong one does not.
        let owner = source.created[1]
        #expect(try await HTTP.upload(try TestImages.bytes("jpeg-baseline.jpg"), base: replica.baseURL, to: owner).status == 201)
        var stranger = owner
        stranger.managementPassword = owner.managementPassword == "000000" ? "000001" : "000000"
        #expect(try await HTTP.upload(try TestImages.bytes("jpeg-baseline.jpg"), base: replica.baseURL, to: stranger).status == 401)
        // The idempotency record came along: the same key and body answer the same announcement.
        let replay = try await HTTP.send(.POST, replica.baseURL + AnnouncementsAPI.collectionPath,
                                         headers: [("Content-Type", "application/json"), ("Idempotency-Key", source.keyed)],
                                         body: .bytes(ByteBuffer(string: HTTP.announcementJSON)))
        #expect(try PetSpotJSON.decode(AnnouncementResponse.self, from: Data(replay.body)).id == source.created[0].id)
        #expect(replica.stop() == 0)
    }

    @Test func aMigrationKilledHalfWayCompletesWhenRunAgain() async throws {
        let source = try await Self.makeInstallation()
        defer { try? FileManager.default.removeItem(atPath: source.data) }
        let storage = try SharedStorage.fresh("migrationkill")
        // Batches of one; killed once the first two are in.
        // Its progress is read on a thread of its own, which kills it the moment the second batch
        // is reported: polling from a task could see the line only after the rest had gone in.
        let process = try ChildProcess(
            ServerProcess.binary,
            ["migrate", "--from-data-dir", source.data, "--photo-store", "s3://\(storage.engines.s3.bucket)/\(storage.prefix)",
             "--s3-endpoint", storage.engines.s3.endpoint, "--batch-size", "1"],
            environment: ProcessInfo.processInfo.environment.merging(storage.environment) { $1 }, error: .pipe)
        let progress = process.standardError!
        let killed = DispatchSemaphore(value: 0)
        let reader = Thread {
            var seen = ""
            while true {
                let chunk = progress.availableData
                if chunk.isEmpty { break }
                seen += String(decoding: chunk, as: UTF8.self)
                if seen.contains("copied 2 of 30") {
                    process.send(SIGKILL)
                    break
                }
            }
            killed.signal()
        }
        reader.start()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async { killed.wait(); done.resume() }
        }
        _ = await process.exitStatus()
        let partial = Int(try await storage.sql("SELECT count(*) FROM announcement")) ?? -1
        #expect((2..<30).contains(partial), "killed after \(partial) rows")
        let resumed = try await Self.migrate(source.data, into: storage)
        #expect(resumed.contains("30 announcement(s) (\(30 - partial) new)"), "\(resumed)")
        #expect(try await storage.sql("SELECT count(*), count(DISTINCT id) FROM announcement") == "30|30")
        let replica = try storage.replica("resumed")
        #expect(try await Self.listing(replica.baseURL).map(\.id) == source.listing.map(\.id))
        #expect(replica.stop() == 0)
    }

    @Test func aRunningServerKeepsItsDataDirectoryFromTheMigration() async throws {
        let data = try makeTemporaryDirectory("migrate-busy")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data, backend: .embedded)
        let storage = try SharedStorage.fresh("migrationbusy")
        let error = await #expect(throws: EngineFailure.self) { _ = try await Self.migrate(data, into: storage) }
        #expect("\(error.map { "\($0)" } ?? "")".contains("in use by another petspot-server"))
        #expect(server.stop() == 0)
    }
}

/// The refusal of `migrate`: a target that is someone else's.
@Suite(.serialized, .enabled(if: TestBackend.configured == .embedded, "backend-independent: run once"))
struct MigrationRefusalTests {
    @Test func aTargetHoldingOtherAnnouncementsIsRefused() async throws {
        let source = try await MigrationTests.makeInstallation()
        defer { try? FileManager.default.removeItem(atPath: source.data) }
        let storage = try SharedStorage.fresh("migrationforeign")
        let replica = try storage.replica("foreign")
        _ = try await HTTP.create(replica.baseURL)
        #expect(replica.stop() == 0)
        let error = await #expect(throws: EngineFailure.self) { _ = try await MigrationTests.migrate(source.data, into: storage) }
        #expect((error.map { "\($0)" } ?? "").contains("holds 1 announcement(s) that are not in this data directory"))
        #expect(try await storage.sql("SELECT count(*) FROM announcement") == "1")
    }
}

/// The hourly tidy-up of a replica on a shared bucket.
@Suite(.enabled(if: TestBackend.configured == .embedded, "backend-independent: run once"))
struct MaintenanceTests {
    @Test func theSweepTakesUnreferencedObjectsOnlyAndOldAttemptsAreForgotten() async throws {
        let storage = try SharedStorage.fresh("maintenance")
        let replica = try storage.replica("maintenance")
        let created = try await HTTP.create(replica.baseURL)
        #expect(try await HTTP.upload(try TestImages.bytes("sample-photo.jpg"), base: replica.baseURL, to: created).status == 201)
        #expect(replica.stop() == 0)
        let bucket = try storage.bucket
        let kept = try #require(try await bucket.keys().first)
        let orphan = try await bucket.store([0xFF, 0xD8, 0xFF, 0xD9], fileExtension: "jpg")
        let store = PostgresAnnouncementStore(url: try DatabaseURL(storage.databaseURL), logger: .init(label: "test"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await store.client.run() }
            _ = try await store.reserveAuthAttempt(id: created.id, client: "198.51.100.7", policy: AuthThrottlePolicy(),
                                                   at: Date().addingTimeInterval(-2 * 24 * 3600))
            #expect(try await store.count(table: .authAttempt) == 1)
            // A grace of -1 min: every object counts as old, so only the references keep one.
            let maintenance = MaintenanceService(store: store, bucket: bucket, throttleWindow: 24 * 3600, grace: -60, logger: .init(label: "test"))
            await maintenance.runOnce()
            #expect(try await bucket.keys() == [kept])
            #expect(!(try await bucket.keys()).contains(orphan))
            #expect(try await store.count(table: .authAttempt) == 0)
            group.cancelAll()
        }
    }
}
