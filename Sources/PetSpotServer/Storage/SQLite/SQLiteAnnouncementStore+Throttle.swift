import Foundation
import GRDB
import PetSpot

/// The password throttle's rows: `auth_attempt` (one per reserved attempt, removed again when
/// the password was right) and `auth_trusted_client`.
extension SQLiteAnnouncementStore {
    public func reserveAuthAttempt(id: AnnouncementID, client: String, policy: AuthThrottlePolicy,
                                   at date: Date) async throws -> AuthAttemptReservation {
        // One write transaction: SQLite has one writer at a time, so the count read here cannot
        // change before the reservation is inserted.
        try await pool.write { db in
            let clientAttempts = try Double.fetchAll(db, sql: """
                SELECT at FROM auth_attempt WHERE announcement_id = ? AND client = ? AND at >= ? ORDER BY at
                """, arguments: [id.rawValue, client, date.addingTimeInterval(-policy.clientWindow).timeIntervalSince1970])
                .map(Date.init(timeIntervalSince1970:))
            let trusted = try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM auth_trusted_client WHERE announcement_id = ? AND client = ?)
                """, arguments: [id.rawValue, client]) ?? false
            let announcementAttempts = trusted ? nil : try Double.fetchAll(db, sql: """
                SELECT at FROM auth_attempt WHERE announcement_id = ? AND at >= ? ORDER BY at
                """, arguments: [id.rawValue, date.addingTimeInterval(-policy.announcementWindow).timeIntervalSince1970])
                .map(Date.init(timeIntervalSince1970:))
            let addressAttempts = trusted ? nil : try Double.fetchAll(db, sql: """
                SELECT at FROM auth_attempt WHERE client = ? AND at >= ? ORDER BY at
                """, arguments: [client, date.addingTimeInterval(-policy.addressWindow).timeIntervalSince1970])
                .map(Date.init(timeIntervalSince1970:))
            if let refusal = AuthAttemptReservation.decide(clientAttempts: clientAttempts, announcementAttempts: announcementAttempts,
                                                           addressAttempts: addressAttempts, policy: policy) {
                return .refused(refusal.scope, retryAt: refusal.retryAt)
            }
            try db.execute(sql: "INSERT INTO auth_attempt (announcement_id, client, at) VALUES (?, ?, ?)",
                           arguments: [id.rawValue, client, date.timeIntervalSince1970])
            let slot = AuthAttemptSlot(id: id, client: client, rowID: db.lastInsertedRowID)
            let (remaining, scope) = AuthAttemptReservation.room(
                clientAttempts: clientAttempts.count, announcementAttempts: announcementAttempts?.count,
                addressAttempts: addressAttempts?.count, policy: policy)
            return .granted(slot, remaining: remaining, limitedBy: scope)
        }
    }

    public func settleAuthAttempt(_ slot: AuthAttemptSlot, succeeded: Bool) async throws {
        guard succeeded else { return }
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM auth_attempt WHERE rowid = ?", arguments: [slot.rowID])
            try db.execute(sql: "INSERT OR IGNORE INTO auth_trusted_client (announcement_id, client) VALUES (?, ?)",
                           arguments: [slot.id.rawValue, slot.client])
        }
    }

    public func releaseAuthAttempt(_ slot: AuthAttemptSlot) async throws {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM auth_attempt WHERE rowid = ?", arguments: [slot.rowID])
        }
    }

    public func trustClient(_ client: String, for id: AnnouncementID) async throws {
        try await pool.write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO auth_trusted_client (announcement_id, client) VALUES (?, ?)",
                           arguments: [id.rawValue, client])
        }
    }
}
