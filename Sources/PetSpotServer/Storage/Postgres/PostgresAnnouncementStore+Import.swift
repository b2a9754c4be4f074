import Foundation
import NIOCore
import PetSpot
import PostgresNIO

/// Writing rows copied from another installation (`petspot-server migrate`): each insert does
/// nothing when the row is there already, so a second or interrupted run adds only what is missing.
extension PostgresAnnouncementStore {
    /// Inserts the announcements (oldest first, in one transaction) that are not there yet.
    /// - Returns: how many were new.
    func importAnnouncements(_ announcements: [StoredAnnouncement]) async throws -> Int {
        try await mapped {
            try await transaction { connection in
                var inserted = 0
                for announcement in announcements {
                    var query = announcement.insertQuery
                    query.sql += " ON CONFLICT (id) DO NOTHING RETURNING id"
                    for try await _ in try await connection.query(query, logger: self.logger) { inserted += 1 }
                }
                return inserted
            }
        }
    }

    func importIdempotencyRecord(_ record: IdempotencyRecord) async throws {
        try await mapped { try await leased { connection in
            try await connection.query("""
                INSERT INTO idempotency_key (key_digest, request_digest, announcement_id, sealed_response, created_at)
                VALUES (\(record.keyDigest), \(record.requestDigest), \(record.announcementID.rawValue),
                        \(ByteBuffer(bytes: record.sealedResponse)), \(record.createdAt.timeIntervalSince1970))
                ON CONFLICT (key_digest) DO NOTHING
                """, logger: self.logger).collectAll()
        } }
    }

    /// Whether every given id has a row (the migration's final check).
    func missingIDs(of ids: [String]) async throws -> [String] {
        try await mapped { try await leased { connection in
            var present: Set<String> = []
            for try await id in try await connection.query("SELECT id FROM announcement WHERE id = ANY(\(ids))", logger: self.logger).decode(String.self) {
                present.insert(id)
            }
            return ids.filter { !present.contains($0) }
        } }
    }
}
