import Foundation
import NIOCore
import PetSpot
import PostgresNIO

/// Writing rows copied from another installation (`petspot-server migrate`): each insert does
/// nothing when the row is there already, so a second or interrupted run adds only what is missing.
extension PostgresAnnouncementStore {
    /// Inserts the announcements (oldest first, in one transaction) that are not there yet, and
    /// brings those that are up to date when the source changed them since (a later `updated_at`).
    /// - Returns: how many were new.
    func importAnnouncements(_ announcements: [StoredAnnouncement]) async throws -> Int {
        try await mapped {
            try await transaction(long: true) { connection in
                var inserted = 0
                for announcement in announcements {
                    var query = announcement.insertQuery
                    query.sql += """
                         ON CONFLICT (id) DO UPDATE SET photo_key = EXCLUDED.photo_key, status = EXCLUDED.status,
                        species = EXCLUDED.species, sex = EXCLUDED.sex, last_seen_date = EXCLUDED.last_seen_date,
                        latitude = EXCLUDED.latitude, longitude = EXCLUDED.longitude, email = EXCLUDED.email,
                        phone = EXCLUDED.phone, microchip_number = EXCLUDED.microchip_number,
                        description = EXCLUDED.description, reward = EXCLUDED.reward, breed = EXCLUDED.breed,
                        approximate_age = EXCLUDED.approximate_age, pet_name = EXCLUDED.pet_name,
                        password_hash = EXCLUDED.password_hash, closed_outcome = EXCLUDED.closed_outcome,
                        closed_at = EXCLUDED.closed_at, revision = EXCLUDED.revision, deleted_at = EXCLUDED.deleted_at,
                        session_generation = EXCLUDED.session_generation,
                        updated_at = EXCLUDED.updated_at WHERE announcement.updated_at < EXCLUDED.updated_at
                        RETURNING (xmax = 0) AS inserted
                        """
                    for try await new in try await connection.query(query, logger: self.logger).decode(Bool.self) where new { inserted += 1 }
                }
                return inserted
            }
        }
    }

    func importIdempotencyRecord(_ record: IdempotencyRecord) async throws {
        try await mapped { try await leased { connection in
            try await connection.query(record.insertQuery, logger: self.logger).collectAll()
        } }
    }

    /// The photo key of each given id that has a row (the migration's final check).
    func photoKeys(of ids: [String]) async throws -> [String: String?] {
        try await mapped { try await leased { connection in
            var found: [String: String?] = [:]
            for try await (id, key) in try await connection.query(
                "SELECT id, photo_key FROM announcement WHERE id = ANY(\(ids))", logger: self.logger).decode((String, String?).self) {
                found[id] = .some(key)
            }
            return found
        } }
    }

    /// Every announcement id (to see whether the target holds only what a migration wrote).
    func allIDs() async throws -> Set<String> {
        try await mapped { try await leased { connection in
            var ids: Set<String> = []
            for try await id in try await connection.query("SELECT id FROM announcement", logger: self.logger).decode(String.self) {
                ids.insert(id)
            }
            return ids
        } }
    }
}
