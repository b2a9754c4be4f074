import Foundation
import PetSpot
import PostgresNIO

/// After posting, in PostgreSQL: the same statements as SQLite's, each change one statement or
/// one transaction, conditional on the revision so two replicas never overwrite each other.
extension PostgresAnnouncementStore {
    public func lookup(id: AnnouncementID) async throws -> AnnouncementLookup {
        try await mapped { try await leased { connection in
            guard let stored = try await connection.query(StoredAnnouncement.selectQuery(where: "id = ", id.rawValue),
                                                          logger: self.logger).firstAnnouncement() else { return .unknown }
            return stored.deletedAt == nil ? .live(stored) : .gone
        } }
    }

    public func update(_ changed: StoredAnnouncement, outbox: [OutboxItem]) async throws -> StoredAnnouncement? {
        let request = changed.request
        // The row as this statement left it: a take-down right after cannot slip in between.
        let statement: PostgresQuery = """
            UPDATE announcement SET status = \(request.status.rawValue), species = \(request.species.rawValue),
                sex = \(request.sex.rawValue), last_seen_date = \(request.lastSeenDate.description),
                latitude = \(request.locationLatitude), longitude = \(request.locationLongitude),
                email = \(request.email), phone = \(request.phone), microchip_number = \(request.microchipNumber),
                description = \(request.description), reward = \(request.reward), breed = \(request.breed),
                approximate_age = \(request.approximateAge), pet_name = \(request.petName),
                closed_outcome = \(changed.closedOutcome?.rawValue), closed_at = \(changed.closedAt?.timeIntervalSince1970),
                updated_at = \(changed.updatedAt.timeIntervalSince1970), place_text = \(changed.placeText), revision = revision + 1
            WHERE id = \(changed.id.rawValue) AND revision = \(changed.revision) AND deleted_at IS NULL
            RETURNING \(unescaped: StoredAnnouncement.columns)
            """
        guard !outbox.isEmpty else {
            return try await mapped { try await leased { connection in
                try await connection.query(statement, logger: self.logger).firstAnnouncement()
            } }
        }
        return try await mapped { try await transaction { connection in
            guard let stored = try await connection.query(statement, logger: self.logger).firstAnnouncement() else { return nil }
            _ = try await PostgresOutbox.insert(outbox, now: changed.updatedAt, on: connection, logger: self.logger)
            return stored
        } }
    }

    public func detachPhoto(id: AnnouncementID, at date: Date) async throws -> String?? {
        try await mapped { try await transaction { connection in
            var previous: String??
            for try await key in try await connection.query(
                "SELECT photo_key FROM announcement WHERE id = \(id.rawValue) AND deleted_at IS NULL FOR NO KEY UPDATE",
                logger: self.logger).decode(String?.self) {
                previous = .some(key)
            }
            guard let previous else { return nil }
            try await connection.query("""
                UPDATE announcement SET photo_key = NULL, updated_at = \(date.timeIntervalSince1970), revision = revision + 1
                WHERE id = \(id.rawValue)
                """, logger: self.logger).collectAll()
            return .some(previous)
        } }
    }

    /// Erases the announcement's details in one transaction, then has the tables vacuumed in the
    /// background (``ErasureVacuum``) so the old row version does not wait for autovacuum.
    public func takeDown(id: AnnouncementID, at date: Date) async throws -> String?? {
        let erased = try await erase(id: id, at: date)
        if erased != nil { erasureVacuum.request(on: client, logger: logger) }
        return erased
    }

    private func erase(id: AnnouncementID, at date: Date) async throws -> String?? {
        try await mapped { try await transaction { connection in
            var previous: String??
            for try await key in try await connection.query(
                "SELECT photo_key FROM announcement WHERE id = \(id.rawValue) AND deleted_at IS NULL FOR UPDATE",
                logger: self.logger).decode(String?.self) {
                previous = .some(key)
            }
            guard let previous else { return nil }
            let at = date.timeIntervalSince1970
            try await connection.query("""
                UPDATE announcement SET email = '', phone = '', microchip_number = NULL, description = NULL, reward = NULL,
                    breed = NULL, approximate_age = NULL, pet_name = NULL, place_text = NULL, password_hash = '', photo_key = NULL,
                    latitude = 0, longitude = 0, deleted_at = \(at), updated_at = \(at), revision = revision + 1
                WHERE id = \(id.rawValue)
                """, logger: self.logger).collectAll()
            try await connection.query("""
                UPDATE idempotency_key SET sealed_response = ''::bytea, request_digest = '' WHERE announcement_id = \(id.rawValue)
                """, logger: self.logger).collectAll()
            try await connection.query("DELETE FROM auth_trusted_client WHERE announcement_id = \(id.rawValue)",
                                       logger: self.logger).collectAll()
            try await connection.query("DELETE FROM outbox WHERE announcement_id = \(id.rawValue) OR related_id = \(id.rawValue)",
                                       logger: self.logger).collectAll()
            try await connection.query("DELETE FROM match_mail_off WHERE announcement_id = \(id.rawValue)", logger: self.logger).collectAll()
            return .some(previous)
        } }
    }
}
