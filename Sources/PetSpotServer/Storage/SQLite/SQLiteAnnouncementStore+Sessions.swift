import GRDB
import PetSpot

/// The owner's browser sessions in SQLite.
extension SQLiteAnnouncementStore {
    public func endOwnerSessions(id: AnnouncementID, newPasswordHash: String?, ifGeneration: Int?) async throws -> StoredAnnouncement? {
        try await pool.write { db in
            try db.execute(sql: """
                UPDATE announcement SET session_generation = session_generation + 1, password_hash = coalesce(?, password_hash)
                WHERE id = ? AND deleted_at IS NULL AND (? IS NULL OR session_generation = ?)
                """, arguments: [newPasswordHash, id.rawValue, ifGeneration, ifGeneration])
            guard db.changesCount == 1 else { return nil }
            return try Row.fetchOne(db, sql: "SELECT \(StoredAnnouncement.columns) FROM announcement WHERE id = ?",
                                    arguments: [id.rawValue]).map(StoredAnnouncement.init(row:))
        }
    }
}
