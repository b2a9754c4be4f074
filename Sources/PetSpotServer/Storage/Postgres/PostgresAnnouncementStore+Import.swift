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
            try await client.withTransaction(logger: logger) { connection in
                var inserted = 0
                for announcement in announcements {
                    var query = announcement.insertQuery
                    query.sql += " ON CONFLICT (id) DO NOTHING RETURNING id"
                    for try await _ in try await connection.query(query, logger: logger) { inserted += 1 }
                }
                return inserted
            }
        }
    }

    func importIdempotencyRecord(_ record: IdempotencyRecord) async throws {
        try await mapped {
            try await client.query("""
                INSERT INTO idempotency_key (key_digest, request_digest, announcement_id, sealed_response, created_at)
                VALUES (\(record.keyDigest), \(record.requestDigest), \(record.announcementID.rawValue),
                        \(ByteBuffer(bytes: record.sealedResponse)), \(record.createdAt.timeIntervalSince1970))
                ON CONFLICT (key_digest) DO NOTHING
                """, logger: logger).collectAll()
        }
    }

    /// Whether every given id has a row (the migration's final check).
    func missingIDs(of ids: [String]) async throws -> [String] {
        try await mapped {
            var present: Set<String> = []
            for try await id in try await client.query("SELECT id FROM announcement WHERE id = ANY(\(ids))", logger: logger).decode(String.self) {
                present.insert(id)
            }
            return ids.filter { !present.contains($0) }
        }
    }
}
