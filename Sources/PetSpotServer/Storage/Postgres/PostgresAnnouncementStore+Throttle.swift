import Foundation
import PetSpot
import PostgresNIO

/// The password throttle's rows. A reservation holds a transaction-level advisory lock on its
/// announcement while it counts and inserts, so concurrent attempts on any replica are
/// counted one after another.
extension PostgresAnnouncementStore {
    public func reserveAuthAttempt(id: AnnouncementID, client clientAddress: String, policy: AuthThrottlePolicy,
                                   at date: Date) async throws -> AuthAttemptReservation {
        try await mapped {
            try await transaction { connection in
                // The address first, then the announcement: every reservation takes them in this
                // order, so two cannot wait on each other.
                try await connection.query("SELECT pg_advisory_xact_lock(hashtextextended(\(clientAddress), 3))", logger: self.logger).collectAll()
                try await connection.query("SELECT pg_advisory_xact_lock(hashtextextended(\(id.rawValue), 2))", logger: self.logger).collectAll()
                var clientAttempts: [Date] = []
                for try await at in try await connection.query("""
                    SELECT at FROM auth_attempt WHERE announcement_id = \(id.rawValue) AND client = \(clientAddress)
                    AND at >= \(date.addingTimeInterval(-policy.clientWindow).timeIntervalSince1970) ORDER BY at
                    """, logger: self.logger).decode(Double.self) {
                    clientAttempts.append(Date(timeIntervalSince1970: at))
                }
                var trusted = false
                for try await exists in try await connection.query("""
                    SELECT EXISTS (SELECT 1 FROM auth_trusted_client WHERE announcement_id = \(id.rawValue) AND client = \(clientAddress))
                    """, logger: self.logger).decode(Bool.self) {
                    trusted = exists
                }
                var announcementAttempts: [Date]?
                if !trusted {
                    var attempts: [Date] = []
                    for try await at in try await connection.query("""
                        SELECT at FROM auth_attempt WHERE announcement_id = \(id.rawValue)
                        AND at >= \(date.addingTimeInterval(-policy.announcementWindow).timeIntervalSince1970) ORDER BY at
                        """, logger: self.logger).decode(Double.self) {
                        attempts.append(Date(timeIntervalSince1970: at))
                    }
                    announcementAttempts = attempts
                }
                var addressAttempts: [Date]?
                if !trusted {
                    var attempts: [Date] = []
                    for try await at in try await connection.query("""
                        SELECT at FROM auth_attempt WHERE client = \(clientAddress)
                        AND at >= \(date.addingTimeInterval(-policy.addressWindow).timeIntervalSince1970) ORDER BY at
                        """, logger: self.logger).decode(Double.self) {
                        attempts.append(Date(timeIntervalSince1970: at))
                    }
                    addressAttempts = attempts
                }
                if let refusal = AuthAttemptReservation.decide(clientAttempts: clientAttempts, announcementAttempts: announcementAttempts,
                                                               addressAttempts: addressAttempts, policy: policy) {
                    return .refused(refusal.scope, retryAt: refusal.retryAt)
                }
                var rowID: Int64 = 0
                for try await attempt in try await connection.query("""
                    INSERT INTO auth_attempt (announcement_id, client, at) VALUES (\(id.rawValue), \(clientAddress), \(date.timeIntervalSince1970))
                    RETURNING attempt
                    """, logger: self.logger).decode(Int64.self) {
                    rowID = attempt
                }
                let (remaining, scope) = AuthAttemptReservation.room(
                    clientAttempts: clientAttempts.count, announcementAttempts: announcementAttempts?.count,
                    addressAttempts: addressAttempts?.count, policy: policy)
                return .granted(AuthAttemptSlot(id: id, client: clientAddress, rowID: rowID), remaining: remaining, limitedBy: scope)
            }
        }
    }

    public func settleAuthAttempt(_ slot: AuthAttemptSlot, succeeded: Bool) async throws {
        guard succeeded else { return }
        try await mapped {
            try await transaction { connection in
                try await connection.query("DELETE FROM auth_attempt WHERE attempt = \(slot.rowID)", logger: self.logger).collectAll()
                try await connection.query("""
                    INSERT INTO auth_trusted_client (announcement_id, client) VALUES (\(slot.id.rawValue), \(slot.client))
                    ON CONFLICT DO NOTHING
                    """, logger: self.logger).collectAll()
            }
        }
    }

    public func releaseAuthAttempt(_ slot: AuthAttemptSlot) async throws {
        try await mapped { try await leased { connection in
            try await connection.query("DELETE FROM auth_attempt WHERE attempt = \(slot.rowID)", logger: self.logger).collectAll()
        } }
    }

    public func trustClient(_ clientAddress: String, for id: AnnouncementID) async throws {
        try await mapped { try await leased { connection in
            try await connection.query("""
                INSERT INTO auth_trusted_client (announcement_id, client) VALUES (\(id.rawValue), \(clientAddress))
                ON CONFLICT DO NOTHING
                """, logger: self.logger).collectAll()
        } }
    }
}
