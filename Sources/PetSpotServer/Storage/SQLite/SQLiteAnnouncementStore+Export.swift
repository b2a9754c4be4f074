import Foundation
import GRDB
import PetSpot

/// Reading a whole installation out, oldest first, for `petspot-server migrate`.
extension SQLiteAnnouncementStore {
    /// Up to `limit` announcements after `position`, oldest first, with their positions.
    func announcements(afterPosition position: Int64, limit: Int) async throws -> [(position: Int64, announcement: StoredAnnouncement)] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT position, \(StoredAnnouncement.columns) FROM announcement WHERE position > ? ORDER BY position LIMIT ?
                """, arguments: [position, limit]).map { (position: $0["position"], announcement: try StoredAnnouncement(row: $0)) }
        }
    }

    /// Every idempotency record created at or after `notBefore`.
    func idempotencyRecords(notBefore: Date) async throws -> [IdempotencyRecord] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM idempotency_key WHERE created_at >= ?", arguments: [notBefore.timeIntervalSince1970])
                .map(IdempotencyRecord.init(row:))
        }
    }

    /// Every (announcement, client) the throttle trusts.
    func trustedClients() async throws -> [(id: String, client: String)] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT announcement_id, client FROM auth_trusted_client").map { (id: $0["announcement_id"], client: $0["client"]) }
        }
    }

    func announcementCount() async throws -> Int {
        try await pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM announcement") ?? 0 }
    }
}
