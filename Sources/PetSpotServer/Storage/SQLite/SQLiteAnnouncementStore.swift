import Foundation
import GRDB
import PetSpot

/// ``AnnouncementStoring`` in one SQLite file through GRDB: WAL (readers never wait for the
/// writer), a busy timeout, migrations from the first version on, and every change in one
/// transaction.
public final class SQLiteAnnouncementStore: AnnouncementStoring {
    let pool: DatabasePool
    /// Serialises attaching and removing each photo key (this process is the only writer).
    let photoKeys = KeyedLock()

    /// Opens (creating and migrating when needed) the database at `path`.
    public init(path: String) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.foreignKeysEnabled = true
        // Erased details (a take-down) are overwritten in the file, not left in free pages.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA secure_delete = ON") }
        pool = try DatabasePool(path: path, configuration: configuration)
        try ServerSchema.migrator.migrate(pool)
    }

    /// Checkpoints the WAL and closes every connection (the server's last step on shutdown).
    public func close() throws {
        try pool.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
        try pool.close()
    }

    public func insert(_ announcement: StoredAnnouncement, idempotency: IdempotencyRecord?, trusting creator: String?,
                       expiringBefore: Date, outbox: [OutboxItem]) async throws -> IdempotencyRecord? {
        let (winner, written) = try await pool.write { db -> (IdempotencyRecord?, Int) in
            if let idempotency {
                try db.execute(sql: "DELETE FROM idempotency_key WHERE key_digest = ? AND created_at < ?",
                               arguments: [idempotency.keyDigest, expiringBefore.timeIntervalSince1970])
                if let row = try Row.fetchOne(db, sql: "SELECT * FROM idempotency_key WHERE key_digest = ?",
                                              arguments: [idempotency.keyDigest]) {
                    return (try IdempotencyRecord(row: row), 0)
                }
            }
            try announcement.insert(db)
            try idempotency?.insert(db)
            if let creator {
                try db.execute(sql: "INSERT OR IGNORE INTO auth_trusted_client (announcement_id, client) VALUES (?, ?)",
                               arguments: [announcement.id.rawValue, creator])
            }
            return (nil, try SQLiteOutbox.insert(outbox, now: announcement.createdAt, in: db).written)
        }
        MailMetrics.queued(written)
        return winner
    }

    public func idempotencyRecord(keyDigest: String, notBefore: Date) async throws -> IdempotencyRecord? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM idempotency_key WHERE key_digest = ? AND created_at >= ?",
                             arguments: [keyDigest, notBefore.timeIntervalSince1970]).map(IdempotencyRecord.init(row:))
        }
    }

    public func announcement(id: AnnouncementID) async throws -> StoredAnnouncement? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT \(StoredAnnouncement.columns) FROM announcement WHERE id = ? AND deleted_at IS NULL",
                             arguments: [id.rawValue]).map(StoredAnnouncement.init(row:))
        }
    }

    public func lookup(id: AnnouncementID) async throws -> AnnouncementLookup {
        try await pool.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT \(StoredAnnouncement.columns) FROM announcement WHERE id = ?",
                                             arguments: [id.rawValue]) else { return .unknown }
            let stored = try StoredAnnouncement(row: row)
            return stored.deletedAt == nil ? .live(stored) : .gone
        }
    }

    public func update(_ changed: StoredAnnouncement, outbox: [OutboxItem]) async throws -> StoredAnnouncement? {
        try await pool.write { db in
            let request = changed.request
            try db.execute(sql: """
                UPDATE announcement SET status = ?, species = ?, sex = ?, last_seen_date = ?, latitude = ?, longitude = ?,
                    email = ?, phone = ?, microchip_number = ?, description = ?, reward = ?, breed = ?, approximate_age = ?,
                    pet_name = ?, closed_outcome = ?, closed_at = ?, updated_at = ?, place_text = ?, revision = revision + 1
                WHERE id = ? AND revision = ? AND deleted_at IS NULL
                """, arguments: [request.status.rawValue, request.species.rawValue, request.sex.rawValue, request.lastSeenDate.description,
                                 request.locationLatitude, request.locationLongitude, request.email, request.phone,
                                 request.microchipNumber, request.description, request.reward, request.breed, request.approximateAge,
                                 request.petName, changed.closedOutcome?.rawValue, changed.closedAt?.timeIntervalSince1970,
                                 changed.updatedAt.timeIntervalSince1970, changed.placeText, changed.id.rawValue, changed.revision])
            guard db.changesCount == 1 else { return nil }
            _ = try SQLiteOutbox.insert(outbox, now: changed.updatedAt, in: db)
            return try Row.fetchOne(db, sql: "SELECT \(StoredAnnouncement.columns) FROM announcement WHERE id = ?",
                                    arguments: [changed.id.rawValue]).map(StoredAnnouncement.init(row:))
        }
    }

    public func detachPhoto(id: AnnouncementID, at date: Date) async throws -> String?? {
        try await pool.write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT photo_key FROM announcement WHERE id = ? AND deleted_at IS NULL",
                                             arguments: [id.rawValue]) else { return nil }
            try db.execute(sql: "UPDATE announcement SET photo_key = NULL, updated_at = ?, revision = revision + 1 WHERE id = ?",
                           arguments: [date.timeIntervalSince1970, id.rawValue])
            return .some(row["photo_key"] as String?)
        }
    }

    /// Erases the announcement's details in place, then checkpoints the write-ahead log into the
    /// file and cuts it to nothing: secure_delete has zeroed the old values in the pages the
    /// update wrote, and the log's older copies of those pages (the create's, the edits') go with
    /// it, so what was erased is in neither file.
    public func takeDown(id: AnnouncementID, at date: Date) async throws -> String?? {
        let erased = try await erase(id: id, at: date)
        if erased != nil { try await truncateLog() }
        return erased
    }

    /// Checkpoints the whole log and truncates it; a reader that holds an old snapshot keeps the
    /// log from being cut, so this waits (a few tries) for readers to move on.
    func truncateLog() async throws {
        var attempt = 0
        while true {
            do {
                try await pool.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
                return
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && attempt < 20 {
                attempt += 1
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    private func erase(id: AnnouncementID, at date: Date) async throws -> String?? {
        try await pool.write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT photo_key FROM announcement WHERE id = ? AND deleted_at IS NULL",
                                             arguments: [id.rawValue]) else { return nil }
            try db.execute(sql: """
                UPDATE announcement SET email = '', phone = '', microchip_number = NULL, description = NULL, reward = NULL,
                    breed = NULL, approximate_age = NULL, pet_name = NULL, place_text = NULL, password_hash = '', photo_key = NULL,
                    latitude = 0, longitude = 0, deleted_at = ?, updated_at = ?, revision = revision + 1
                WHERE id = ?
                """, arguments: [date.timeIntervalSince1970, date.timeIntervalSince1970, id.rawValue])
            try db.execute(sql: "UPDATE idempotency_key SET sealed_response = x'', request_digest = '' WHERE announcement_id = ?",
                           arguments: [id.rawValue])
            try db.execute(sql: "DELETE FROM auth_trusted_client WHERE announcement_id = ?", arguments: [id.rawValue])
            try db.execute(sql: "DELETE FROM outbox WHERE announcement_id = ? OR related_id = ?", arguments: [id.rawValue, id.rawValue])
            try db.execute(sql: "DELETE FROM match_mail_off WHERE announcement_id = ?", arguments: [id.rawValue])
            return .some(row["photo_key"] as String?)
        }
    }

    public func page(limit: Int, after cursor: PageCursor?, matching filter: AnnouncementFilter) async throws -> AnnouncementPage {
        try await pool.read { db in
            // One row more than asked says whether a next page exists.
            let species = filter.species?.rawValue, status = filter.status?.rawValue
            let rows: [Row]
            if let chip = filter.chip {
                // Open ones with that number, through the partial index `announcement_chip`.
                rows = try Row.fetchAll(db, sql: """
                    SELECT position, \(StoredAnnouncement.columns) FROM announcement
                    WHERE microchip_number = ? AND deleted_at IS NULL AND closed_outcome IS NULL
                      AND position < ? AND (? IS NULL OR species = ?) AND (? IS NULL OR status = ?)
                    ORDER BY position DESC LIMIT ?
                    """, arguments: [chip, cursor?.position ?? Int64.max, species, species, status, status, limit + 1])
            } else {
                rows = try Row.fetchAll(db, sql: """
                    SELECT position, \(StoredAnnouncement.columns) FROM announcement
                    WHERE position < ? AND (? IS NULL OR species = ?) AND (? IS NULL OR status = ?)
                      AND deleted_at IS NULL AND (closed_outcome IS NOT NULL) = ?
                    ORDER BY position DESC LIMIT ?
                    """, arguments: [cursor?.position ?? Int64.max, species, species, status, status, filter.closed, limit + 1])
            }
            let shown = rows.prefix(limit)
            let next = rows.count > limit ? shown.last.map { PageCursor(position: $0["position"]) } : nil
            return AnnouncementPage(announcements: try shown.map(StoredAnnouncement.init(row:)), next: next)
        }
    }

    public func setPhoto(id: AnnouncementID, photoKey: String, at date: Date, outbox: [OutboxItem],
                         storing: @escaping @Sendable () async throws -> Void) async throws -> PhotoReplacement {
        try await photoKeys.withLock(photoKey) {
            let exists = try await pool.read { db in
                try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM announcement WHERE id = ? AND deleted_at IS NULL)", arguments: [id.rawValue]) ?? false
            }
            guard exists else { return PhotoReplacement(found: false, previousKey: nil) }
            try await storing()
            return try await pool.write { db in
                guard let row = try Row.fetchOne(db, sql: "SELECT photo_key FROM announcement WHERE id = ? AND deleted_at IS NULL", arguments: [id.rawValue]) else {
                    return PhotoReplacement(found: false, previousKey: nil)
                }
                try db.execute(sql: "UPDATE announcement SET photo_key = ?, updated_at = ?, revision = revision + 1 WHERE id = ?",
                               arguments: [photoKey, date.timeIntervalSince1970, id.rawValue])
                _ = try SQLiteOutbox.insert(outbox, now: date, in: db)
                return PhotoReplacement(found: true, previousKey: row["photo_key"])
            }
        }
    }

    public func removePhotoIfUnreferenced(_ photoKey: String, remove: @escaping @Sendable () async throws -> Void) async throws -> Bool {
        try await photoKeys.withLock(photoKey) {
            guard try await !isPhotoReferenced(photoKey) else { return false }
            try await remove()
            return true
        }
    }

    public func isPhotoReferenced(_ photoKey: String) async throws -> Bool {
        try await pool.read { db in
            // A form's pending photo is in use too.
            try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM announcement WHERE photo_key = ?) OR EXISTS (SELECT 1 FROM pending_upload WHERE photo_key = ?)
                """, arguments: [photoKey, photoKey]) ?? false
        }
    }

    public func referencedPhotoKeys() async throws -> Set<String> {
        try await pool.read { db in
            Set(try String.fetchAll(db, sql: """
                SELECT photo_key FROM announcement WHERE photo_key IS NOT NULL UNION SELECT photo_key FROM pending_upload
                """))
        }
    }

    public func purge(idempotencyBefore: Date, failuresBefore: Date) async throws {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM idempotency_key WHERE created_at < ?", arguments: [idempotencyBefore.timeIntervalSince1970])
            try db.execute(sql: "DELETE FROM auth_attempt WHERE at < ?", arguments: [failuresBefore.timeIntervalSince1970])
        }
    }

    public func replacePasswordHash(id: AnnouncementID, from old: String, to new: String) async throws {
        try await pool.write { db in
            try db.execute(sql: "UPDATE announcement SET password_hash = ? WHERE id = ? AND password_hash = ?",
                           arguments: [new, id.rawValue, old])
        }
    }

    public func rewritePasswordHashes(_ rewrite: @escaping @Sendable (_ id: String, _ stored: String) -> String?) async throws -> Int {
        let rewritten = try await pool.write { db in
            var rewritten = 0
            let rows = try Row.fetchAll(db, sql: "SELECT id, password_hash FROM announcement WHERE password_hash LIKE '$2%'")
            for row in rows {
                let old: String = row["password_hash"], id: String = row["id"]
                guard let new = rewrite(id, old) else { continue }
                try db.execute(sql: "UPDATE announcement SET password_hash = ? WHERE id = ? AND password_hash = ?",
                               arguments: [new, id, old])
                rewritten += db.changesCount
            }
            return rewritten
        }
        if rewritten > 0 {
            // The old forms may still sit in the write-ahead log: checkpoint it and cut it to
            // nothing (freed pages are overwritten: secure_delete).
            try await pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        }
        return rewritten
    }

    public func ping() async throws {
        try await pool.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO health_probe (id, at) VALUES (1, ?)", arguments: [Date().timeIntervalSince1970])
        }
    }

    /// The integer a counting query returns (diagnostics and tests).
    func count(_ sql: String) throws -> Int {
        try pool.read { db in try Int.fetchOne(db, sql: sql) ?? 0 }
    }
}
