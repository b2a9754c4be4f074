import Foundation
import GRDB
import PetSpot
import Testing
@testable import PetSpotServer

/// A database made before breed and age were sent (schema v3) opens, gains the columns, keeps
/// its rows, and takes new rows with them.
@Suite struct SchemaUpgradeTests {
    @Test func aVersion3DatabaseGainsBreedAndAgeAndKeepsItsRows() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("schema-v3-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("petspot.sqlite").path
        let id = "0f8fad5b-d9cb-469f-a165-70867728950e"
        do {
            let old = try DatabasePool(path: path)
            try ServerSchema.migrator.migrate(old, upTo: "v3")
            try await old.write { db in
                try db.execute(sql: """
                    INSERT INTO announcement (id, status, species, sex, last_seen_date, latitude, longitude, email, phone,
                                              password_hash, created_at, updated_at)
                    VALUES (?, 'MISSING', 'CAT', 'FEMALE', '2025-11-18', 52.2, 21.0, 'a@example.com', '123456789', '$2b$x', 1, 1)
                    """, arguments: [id])
            }
            #expect(try await old.read { db in try db.columns(in: "announcement").map(\.name) }.contains("breed") == false)
            try old.close()
        }
        let store = try SQLiteAnnouncementStore(path: path)
        let columns = try await store.pool.read { db in try db.columns(in: "announcement").map(\.name) }
        #expect(columns.contains("breed") && columns.contains("approximate_age"))
        let kept = try #require(try await store.announcement(id: AnnouncementID(rawValue: id)!))
        #expect(kept.request.species == .cat && kept.request.breed == nil && kept.request.approximateAge == nil)
        #expect(kept.details(photoURL: { $0 }).breed == nil)

        var request = kept.request
        (request.breed, request.approximateAge) = ("Maine Coon", 7)
        let newer = StoredAnnouncement(id: AnnouncementID(rawValue: "1f8fad5b-d9cb-469f-a165-70867728950e")!, request: request,
                                       passwordHash: "$2b$y", createdAt: Date(), updatedAt: Date())
        _ = try await store.insert(newer, idempotency: nil, trusting: nil, expiringBefore: Date())
        let read = try #require(try await store.announcement(id: newer.id))
        #expect(read.request.breed == "Maine Coon" && read.request.approximateAge == 7)
        try store.close()
    }
}
