import Foundation
import Logging
import NIOCore
import PetSpot
import PostgresNIO

/// ``AnnouncementStoring`` in PostgreSQL through a PostgresNIO connection pool, shared by any
/// number of replicas:
///
/// - idempotency: a create inserts its record with `ON CONFLICT DO NOTHING` in the transaction
///   that inserts the announcement; the primary key makes a concurrent twin wait for the first
///   to commit and then find its record — a unique constraint, never a read-then-write;
/// - the password throttle: a reservation counts and inserts under a transaction-level advisory
///   lock on the announcement, so replicas together grant no more attempts than one;
/// - photos: attaching one and removing an unreferenced one both hold an advisory lock on the
///   photo's key in their transaction, so no replica deletes an object another is attaching.
///
/// The pool (``client``) must be running as a service; queries are parameterised through
/// PostgresNIO's interpolation only.
public final class PostgresAnnouncementStore: AnnouncementStoring {
    public let client: PostgresClient
    let logger: Logger

    /// How long a request waits for a connection before it is answered 503.
    let leaseTimeout: Duration
    /// Photo attachments at once: each holds a connection through its S3 PUT, so a slow store
    /// may take at most half the pool and never starve reads and creates.
    let photoSlots: AsyncSemaphore
    /// Vacuums after take-downs.
    let erasureVacuum = ErasureVacuum()

    public init(url: DatabaseURL, maxConnections: Int = 16, leaseTimeout: Duration = .seconds(5), logger: Logger) {
        client = PostgresClient(configuration: url.clientConfiguration(maxConnections: maxConnections), backgroundLogger: logger)
        self.leaseTimeout = leaseTimeout
        self.logger = logger
        photoSlots = AsyncSemaphore(limit: max(1, maxConnections / 2))
    }

    /// Applies missing migrations (see ``PostgresSchema``).
    @discardableResult
    public func migrate() async throws -> [Int] {
        try await mapped { try await PostgresSchema.migrate(self, logger: self.logger) }
    }

    public func insert(_ announcement: StoredAnnouncement, idempotency: IdempotencyRecord?, trusting creator: String?,
                       expiringBefore: Date, outbox: [OutboxItem]) async throws -> IdempotencyRecord? {
        try await mapped {
            do {
                let written = try await transaction { connection in
                    if let idempotency {
                        try await connection.query("""
                            DELETE FROM idempotency_key WHERE key_digest = \(idempotency.keyDigest)
                            AND created_at < \(expiringBefore.timeIntervalSince1970)
                            """, logger: self.logger).collectAll()
                    }
                    try await connection.query(announcement.insertQuery, logger: self.logger).collectAll()
                    if let creator {
                        try await connection.query("""
                            INSERT INTO auth_trusted_client (announcement_id, client) VALUES (\(announcement.id.rawValue), \(creator))
                            """, logger: self.logger).collectAll()
                    }
                    if let idempotency {
                        var inserted = false
                        for try await _ in try await connection.query(idempotency.insertQuery, logger: self.logger) {
                            inserted = true
                        }
                        // A twin committed first: undo this announcement and answer with the twin's record.
                        if !inserted { throw LostIdempotencyRace() }
                    }
                    return try await PostgresOutbox.insert(outbox, now: announcement.createdAt, on: connection, logger: self.logger).written
                }
                MailMetrics.queued(written)
                return nil
            } catch is LostIdempotencyRace {
                guard let idempotency, let winner = try await idempotencyRecord(keyDigest: idempotency.keyDigest, notBefore: expiringBefore) else {
                    throw StorageError.unreachable(what: "the database", reason: "an idempotency record vanished while it was read")
                }
                return winner
            }
        }
    }

    private struct LostIdempotencyRace: Error {}

    public func idempotencyRecord(keyDigest: String, notBefore: Date) async throws -> IdempotencyRecord? {
        try await mapped { try await leased { connection in
            try await connection.query("""
                SELECT key_digest, request_digest, announcement_id, sealed_response, created_at FROM idempotency_key
                WHERE key_digest = \(keyDigest) AND created_at >= \(notBefore.timeIntervalSince1970)
                """, logger: self.logger).firstRecord()
        } }
    }

    public func announcement(id: AnnouncementID) async throws -> StoredAnnouncement? {
        try await mapped { try await leased { connection in
            try await connection.query(StoredAnnouncement.selectQuery(where: "deleted_at IS NULL AND id = ", id.rawValue),
                                       logger: self.logger).firstAnnouncement()
        } }
    }

    public func page(limit: Int, after cursor: PageCursor?, matching filter: AnnouncementFilter) async throws -> AnnouncementPage {
        try await mapped { try await leased { connection in
            var rows: [(Int64, StoredAnnouncement)] = []
            let before = cursor?.position ?? Int64.max
            let species = filter.species?.rawValue, status = filter.status?.rawValue
            // Open ones with a chip number go through the partial index `announcement_chip`.
            let query: PostgresQuery = if let chip = filter.chip {
                """
                SELECT position, \(unescaped: StoredAnnouncement.columns) FROM announcement
                WHERE microchip_number = \(chip) AND deleted_at IS NULL AND closed_outcome IS NULL
                  AND position < \(before) AND (\(species)::text IS NULL OR species = \(species))
                  AND (\(status)::text IS NULL OR status = \(status))
                ORDER BY position DESC LIMIT \(limit + 1)
                """
            } else {
                """
                SELECT position, \(unescaped: StoredAnnouncement.columns) FROM announcement
                WHERE position < \(before) AND (\(species)::text IS NULL OR species = \(species))
                  AND (\(status)::text IS NULL OR status = \(status))
                  AND deleted_at IS NULL AND (closed_outcome IS NOT NULL) = \(filter.closed)
                ORDER BY position DESC LIMIT \(limit + 1)
                """
            }
            for try await row in try await connection.query(query, logger: self.logger) {
                let access = row.makeRandomAccess()
                rows.append((try access["position"].decode(Int64.self), try StoredAnnouncement(access)))
            }
            let shown = rows.prefix(limit)
            let next = rows.count > limit ? shown.last.map { PageCursor(position: $0.0) } : nil
            return AnnouncementPage(announcements: shown.map(\.1), next: next)
        } }
    }

    public func setPhoto(id: AnnouncementID, photoKey: String, at date: Date, outbox: [OutboxItem],
                         storing: @escaping @Sendable () async throws -> Void) async throws -> PhotoReplacement {
        try await photoSlots.withSlot { try await self.mapped {
            try await self.transaction { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(hashtextextended(\(photoKey), 3))", logger: self.logger).collectAll()
                var previous: String??
                for try await key in try await connection.query(
                    "SELECT photo_key FROM announcement WHERE id = \(id.rawValue) AND deleted_at IS NULL FOR NO KEY UPDATE",
                    logger: self.logger).decode(String?.self) {
                    previous = .some(key)
                }
                guard let previous else { return PhotoReplacement(found: false, previousKey: nil) }
                // The object is written while the key's lock is held: a removal of the same key
                // waits, and then finds it referenced.
                try await storing()
                try await connection.query("""
                    UPDATE announcement SET photo_key = \(photoKey), updated_at = \(date.timeIntervalSince1970), revision = revision + 1
                    WHERE id = \(id.rawValue)
                    """, logger: self.logger).collectAll()
                _ = try await PostgresOutbox.insert(outbox, now: date, on: connection, logger: self.logger)
                return PhotoReplacement(found: true, previousKey: previous)
            }
        } }
    }

    public func removePhotoIfUnreferenced(_ photoKey: String, remove: @escaping @Sendable () async throws -> Void) async throws -> Bool {
        try await mapped {
            try await transaction { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(hashtextextended(\(photoKey), 3))", logger: self.logger).collectAll()
                var referenced = true
                // A form's pending photo is in use too.
                for try await exists in try await connection.query("""
                    SELECT EXISTS (SELECT 1 FROM announcement WHERE photo_key = \(photoKey))
                        OR EXISTS (SELECT 1 FROM pending_upload WHERE photo_key = \(photoKey))
                    """, logger: self.logger).decode(Bool.self) {
                    referenced = exists
                }
                guard !referenced else { return false }
                try await remove()
                return true
            }
        }
    }

    public func isPhotoReferenced(_ photoKey: String) async throws -> Bool {
        try await mapped { try await leased { connection in
            var referenced = false
            for try await exists in try await connection.query("""
                SELECT EXISTS (SELECT 1 FROM announcement WHERE photo_key = \(photoKey))
                    OR EXISTS (SELECT 1 FROM pending_upload WHERE photo_key = \(photoKey))
                """, logger: self.logger).decode(Bool.self) {
                referenced = exists
            }
            return referenced
        } }
    }

    public func referencedPhotoKeys() async throws -> Set<String> {
        try await mapped { try await leased { connection in
            var keys: Set<String> = []
            for try await key in try await connection.query(
                "SELECT photo_key FROM announcement WHERE photo_key IS NOT NULL UNION SELECT photo_key FROM pending_upload",
                logger: self.logger).decode(String.self) {
                keys.insert(key)
            }
            return keys
        } }
    }

    public func purge(idempotencyBefore: Date, failuresBefore: Date) async throws {
        try await mapped { try await leased { connection in
            try await connection.query("DELETE FROM idempotency_key WHERE created_at < \(idempotencyBefore.timeIntervalSince1970)",
                                   logger: self.logger).collectAll()
            try await connection.query("DELETE FROM auth_attempt WHERE at < \(failuresBefore.timeIntervalSince1970)", logger: self.logger).collectAll()
        } }
    }

    public func replacePasswordHash(id: AnnouncementID, from old: String, to new: String) async throws {
        try await mapped { try await leased { connection in
            try await connection.query("UPDATE announcement SET password_hash = \(new) WHERE id = \(id.rawValue) AND password_hash = \(old)",
                                       logger: self.logger).collectAll()
        } }
    }

    public func rewritePasswordHashes(_ rewrite: @escaping @Sendable (_ id: String, _ stored: String) -> String?) async throws -> Int {
        try await mapped { try await leased { connection in
            var rows: [(String, String)] = []
            for try await (id, hash) in try await connection.query(
                "SELECT id, password_hash FROM announcement WHERE password_hash LIKE '$2%'", logger: self.logger).decode((String, String).self) {
                rows.append((id, hash))
            }
            var rewritten = 0
            for (id, old) in rows {
                guard let new = rewrite(id, old) else { continue }
                // Replicas starting together may seal the same row: the first wins, the others match nothing.
                let result = try await connection.query(
                    "UPDATE announcement SET password_hash = \(new) WHERE id = \(id) AND password_hash = \(old) RETURNING id",
                    logger: self.logger)
                for try await _ in result.decode(String.self) { rewritten += 1 }
            }
            return rewritten
        } }
    }

    public func ping() async throws {
        try await mapped { try await leased { connection in
            try await connection.query("""
                INSERT INTO health_probe (id, at) VALUES (1, \(Date().timeIntervalSince1970))
                ON CONFLICT (id) DO UPDATE SET at = EXCLUDED.at
                """, logger: self.logger).collectAll()
        } }
    }

    /// How many rows a table holds (tests and `migrate`'s final check).
    public func count(table: CountedTable) async throws -> Int {
        try await mapped { try await leased { connection in
            var count = 0
            for try await value in try await connection.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table.rawValue)"),
                                                          logger: self.logger).decode(Int.self) {
                count = value
            }
            return count
        } }
    }

    /// Tables whose rows can be counted.
    public enum CountedTable: String, Sendable {
        case announcement, idempotencyKey = "idempotency_key", authAttempt = "auth_attempt"
    }

    /// Runs `body`, turning an unreachable or failing database into ``StorageError/unreachable(what:reason:)``
    /// (503 with Retry-After for the client) with a reason that holds no query values or password.
    func mapped<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as PSQLError {
            throw PostgresFailure.storageError(error)
        } catch where String(describing: type(of: error)) == "ConnectionPoolError" {
            // The pool's own refusals (its circuit breaker open while the database is down).
            throw StorageError.unreachable(what: "the database", reason: "no connection could be made: \(error)")
        }
    }
}
