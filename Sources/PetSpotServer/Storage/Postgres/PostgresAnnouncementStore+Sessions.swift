import PetSpot
import PostgresNIO

/// The owner's browser sessions in PostgreSQL: one statement, as SQLite's.
extension PostgresAnnouncementStore {
    public func endOwnerSessions(id: AnnouncementID, newPasswordHash: String?, ifGeneration: Int?) async throws -> StoredAnnouncement? {
        try await mapped { try await leased { connection in
            try await connection.query("""
                UPDATE announcement SET session_generation = session_generation + 1,
                    password_hash = coalesce(\(newPasswordHash), password_hash)
                WHERE id = \(id.rawValue) AND deleted_at IS NULL
                    AND (\(ifGeneration)::integer IS NULL OR session_generation = \(ifGeneration))
                RETURNING \(unescaped: StoredAnnouncement.columns)
                """, logger: self.logger).firstAnnouncement()
        } }
    }
}
