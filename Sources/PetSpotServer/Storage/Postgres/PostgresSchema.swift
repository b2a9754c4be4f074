import Foundation
import Logging
import PostgresNIO

/// The server's tables in PostgreSQL, as numbered migrations (never edit a released one; add
/// the next). They mirror the SQLite schema (``ServerSchema``): times are seconds since 1970
/// (`double precision`, as SQLite's REAL) so both engines hold exactly the same values and
/// `petspot-server migrate` copies them unchanged.
///
/// Applied at start in one transaction under a transaction-level advisory lock: replicas
/// starting together queue on the lock, the first applies what is missing, the others find
/// nothing left to do.
enum PostgresSchema {
    /// Any constant that no other lock of ours uses (`ascii("PetSpot!")`).
    static let migrationLock: Int64 = 0x5065_7453_706F_7421

    static let migrations: [(version: Int, sql: [String])] = [
        (1, [
            """
            CREATE TABLE announcement (
                position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                id text NOT NULL UNIQUE,
                status text NOT NULL,
                species text NOT NULL,
                sex text NOT NULL,
                last_seen_date text NOT NULL,
                latitude double precision NOT NULL,
                longitude double precision NOT NULL,
                email text NOT NULL,
                phone text NOT NULL,
                microchip_number text,
                description text,
                reward text,
                password_hash text NOT NULL,
                photo_key text,
                created_at double precision NOT NULL,
                updated_at double precision NOT NULL
            )
            """,
            "CREATE INDEX announcement_photo_key ON announcement (photo_key)",
            """
            CREATE TABLE idempotency_key (
                key_digest text PRIMARY KEY,
                request_digest text NOT NULL,
                announcement_id text NOT NULL REFERENCES announcement (id) ON DELETE CASCADE,
                sealed_response bytea NOT NULL,
                created_at double precision NOT NULL
            )
            """,
            "CREATE INDEX idempotency_key_created ON idempotency_key (created_at)",
            """
            CREATE TABLE auth_attempt (
                attempt bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                announcement_id text NOT NULL,
                client text NOT NULL,
                at double precision NOT NULL
            )
            """,
            "CREATE INDEX auth_attempt_client ON auth_attempt (announcement_id, client, at)",
            "CREATE INDEX auth_attempt_time ON auth_attempt (at)",
            """
            CREATE TABLE auth_trusted_client (
                announcement_id text NOT NULL REFERENCES announcement (id) ON DELETE CASCADE,
                client text NOT NULL,
                PRIMARY KEY (announcement_id, client)
            )
            """,
            "CREATE TABLE health_probe (id integer PRIMARY KEY CHECK (id = 1), at double precision NOT NULL)",
        ]),
        // The public list page's filters, newest first: a rare species or status never scans
        // the whole table.
        (2, [
            "CREATE INDEX announcement_species ON announcement (species, position)",
            "CREATE INDEX announcement_status ON announcement (status, position)",
            "CREATE INDEX announcement_species_status ON announcement (species, status, position)",
        ]),
        // The breed and age the forms collect (both optional: older announcements stay without).
        (3, [
            "ALTER TABLE announcement ADD COLUMN breed text",
            "ALTER TABLE announcement ADD COLUMN approximate_age integer",
        ]),
        // As SQLite's v5: the pet's name, the owner's closing, the revision (ETag) and the
        // take-down tombstone.
        (4, [
            "ALTER TABLE announcement ADD COLUMN pet_name text",
            "ALTER TABLE announcement ADD COLUMN closed_outcome text",
            "ALTER TABLE announcement ADD COLUMN closed_at double precision",
            "ALTER TABLE announcement ADD COLUMN revision integer NOT NULL DEFAULT 1",
            "ALTER TABLE announcement ADD COLUMN deleted_at double precision",
        ]),
        // As SQLite's v6: the gazetteer, names folded for lookup, points in a B-tree for a box.
        (5, [
            """
            CREATE TABLE place (
                id integer PRIMARY KEY,
                name text NOT NULL,
                country_code text NOT NULL,
                population integer NOT NULL,
                latitude double precision NOT NULL,
                longitude double precision NOT NULL
            )
            """,
            "CREATE INDEX place_point ON place (latitude, longitude)",
            "CREATE TABLE place_name (folded text NOT NULL, place_id integer NOT NULL REFERENCES place (id) ON DELETE CASCADE)",
            "CREATE INDEX place_name_folded ON place_name (folded, place_id)",
            "CREATE INDEX place_name_place ON place_name (place_id)",
            "ALTER TABLE announcement ADD COLUMN place_text text",
            "CREATE TABLE photo_signature (photo_key text PRIMARY KEY, signature text NOT NULL)",
            // Searches near a place: a box on (latitude, longitude) over live announcements with
            // a location, then the exact order by distance.
            """
            CREATE INDEX announcement_point ON announcement (latitude, longitude)
            WHERE deleted_at IS NULL AND NOT (latitude = 0 AND longitude = 0)
            """,
        ]),
        // As SQLite's v7: where each place belongs; names by prefix in byte order.
        (6, [
            "ALTER TABLE place ADD COLUMN admin1_code text",
            "ALTER TABLE place ADD COLUMN feature_code text",
            "ALTER TABLE place ADD COLUMN section boolean NOT NULL DEFAULT false",
            "ALTER TABLE place ADD COLUMN parent_id integer",
            "ALTER TABLE place ADD COLUMN ranked boolean NOT NULL DEFAULT false",
            #"CREATE INDEX place_name_prefix ON place_name ((folded COLLATE "C"), place_id)"#,
        ]),
        // As SQLite's v8: the open announcements by microchip number.
        (7, [
            """
            CREATE INDEX announcement_chip ON announcement (microchip_number, position)
            WHERE microchip_number IS NOT NULL AND deleted_at IS NULL AND closed_outcome IS NULL
            """,
        ]),
        // As SQLite's v9: the report forms' pending photos, kept for a day.
        (8, [
            """
            CREATE TABLE pending_upload (
                token_digest text PRIMARY KEY,
                browser_digest text NOT NULL,
                photo_key text NOT NULL,
                width integer NOT NULL,
                height integer NOT NULL,
                latitude double precision,
                longitude double precision,
                created_at double precision NOT NULL
            )
            """,
            "CREATE INDEX pending_upload_photo_key ON pending_upload (photo_key)",
            "CREATE INDEX pending_upload_created ON pending_upload (created_at)",
        ]),
        // As SQLite's v10: the generation of the owner's browser sessions.
        (9, [
            "ALTER TABLE announcement ADD COLUMN session_generation integer NOT NULL DEFAULT 0",
        ]),
        // As SQLite's v11: the outbox, its once-keys, match-mail opt-outs, area subscriptions.
        (10, OutboxSchema.postgres),
    ]

    /// Applies the migrations this database lacks.
    /// - Returns: the versions applied now (empty when another replica or an earlier start did).
    /// - Throws: ``StorageError/newerSchema(found:known:)`` when the database was migrated by a
    ///   newer petspot-server.
    @discardableResult
    static func migrate(_ store: PostgresAnnouncementStore, logger: Logger) async throws -> [Int] {
        try await store.transaction(long: true) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(migrationLock))", logger: logger).collectAll()
            try await connection.query("""
                CREATE TABLE IF NOT EXISTS schema_migration (
                    version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())
                """, logger: logger).collectAll()
            var applied: Set<Int> = []
            for try await version in try await connection.query("SELECT version FROM schema_migration", logger: logger).decode(Int.self) {
                applied.insert(version)
            }
            let known = migrations.map(\.version).max() ?? 0
            if let newest = applied.max(), newest > known { throw StorageError.newerSchema(found: newest, known: known) }
            var now: [Int] = []
            for migration in migrations where !applied.contains(migration.version) {
                for statement in migration.sql {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger).collectAll()
                }
                try await connection.query("INSERT INTO schema_migration (version) VALUES (\(migration.version))", logger: logger).collectAll()
                now.append(migration.version)
            }
            return now
        }
    }
}

extension PostgresRowSequence {
    /// Reads every row, so the connection is free for the next statement.
    func collectAll() async throws {
        for try await _ in self {}
    }
}
