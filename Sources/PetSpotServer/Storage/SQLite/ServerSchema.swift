import GRDB

/// The server's tables, created and upgraded by a GRDB migrator (one migration per released
/// schema; never edit a released one, add the next).
///
/// - `announcement`: one row per announcement; `position` (the rowid) orders the listing,
///   newest first. Times are seconds since 1970 (REAL).
/// - `idempotency_key`: the sealed first response of each create request that carried a key.
/// - `auth_attempt` (v2; v1 had `auth_failure`): reserved password attempts, per announcement and
///   client address, for the throttle; a right password removes its row.
/// - `auth_trusted_client` (v2): addresses an announcement trusts (its creator, and any that gave
///   the right password), which the per-announcement ceiling does not hold.
/// - v11: `outbox` (messages and the mail worker's work, written with the event that causes
///   them), `outbox_once` (keys written once ever: one mail per pair of reports),
///   `match_mail_off` (owners who turned possible-match mail off) and `alert_subscription`
///   (addresses following an area).
/// - v10: `session_generation`: the owner's browser sessions made before the last sign-out or
///   new password no longer hold (``OwnerSession``).
/// - v9: `pending_upload`: photos the report forms prepared and hold for a form sent back with
///   problems (or sent ahead by the page's script), by the digest of the form's token.
/// - v8: `announcement_chip`, the open announcements by microchip number.
/// - v7: `place.admin1_code`, `feature_code`, `section`, `parent_id`, `ranked`: where each place
///   belongs, worked out at import.
/// - v6: `place`, `place_name` and the R*Tree `place_box`: the gazetteer; `place_text`, an
///   announcement's place in words, computed when its location is set.
/// - v5: `pet_name`, `closed_outcome`/`closed_at` (closed by its owner), `revision` (bumped by
///   every change) and `deleted_at` (taken down: a tombstone whose details are erased).
enum ServerSchema {
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE announcement (
                    position INTEGER PRIMARY KEY AUTOINCREMENT,
                    id TEXT NOT NULL UNIQUE,
                    status TEXT NOT NULL,
                    species TEXT NOT NULL,
                    sex TEXT NOT NULL,
                    last_seen_date TEXT NOT NULL,
                    latitude REAL NOT NULL,
                    longitude REAL NOT NULL,
                    email TEXT NOT NULL,
                    phone TEXT NOT NULL,
                    microchip_number TEXT,
                    description TEXT,
                    reward TEXT,
                    password_hash TEXT NOT NULL,
                    photo_key TEXT,
                    created_at REAL NOT NULL,
                    updated_at REAL NOT NULL
                );
                CREATE INDEX announcement_photo_key ON announcement(photo_key);

                CREATE TABLE idempotency_key (
                    key_digest TEXT PRIMARY KEY NOT NULL,
                    request_digest TEXT NOT NULL,
                    announcement_id TEXT NOT NULL REFERENCES announcement(id) ON DELETE CASCADE,
                    sealed_response BLOB NOT NULL,
                    created_at REAL NOT NULL
                );
                CREATE INDEX idempotency_key_created ON idempotency_key(created_at);

                CREATE TABLE auth_failure (
                    announcement_id TEXT NOT NULL,
                    at REAL NOT NULL
                );
                CREATE INDEX auth_failure_lookup ON auth_failure(announcement_id, at);
                """)
        }
        migrator.registerMigration("v2") { db in
            try db.execute(sql: """
                DROP TABLE auth_failure;
                CREATE TABLE auth_attempt (
                    announcement_id TEXT NOT NULL,
                    client TEXT NOT NULL,
                    at REAL NOT NULL
                );
                CREATE INDEX auth_attempt_client ON auth_attempt(announcement_id, client, at);
                CREATE INDEX auth_attempt_time ON auth_attempt(at);

                CREATE TABLE auth_trusted_client (
                    announcement_id TEXT NOT NULL REFERENCES announcement(id) ON DELETE CASCADE,
                    client TEXT NOT NULL,
                    PRIMARY KEY (announcement_id, client)
                );

                -- One row, rewritten by every /health: proves the database can still be written.
                CREATE TABLE health_probe (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    at REAL NOT NULL
                );
                """)
        }
        migrator.registerMigration("v3") { db in
            // The public list page's filters, newest first: a rare species or status never
            // scans the whole table.
            try db.execute(sql: """
                CREATE INDEX announcement_species ON announcement(species, position);
                CREATE INDEX announcement_status ON announcement(status, position);
                CREATE INDEX announcement_species_status ON announcement(species, status, position);
                """)
        }
        migrator.registerMigration("v4") { db in
            // The breed and age the forms collect, sent since the contract gained them (both
            // optional: announcements made before stay without).
            try db.execute(sql: """
                ALTER TABLE announcement ADD COLUMN breed TEXT;
                ALTER TABLE announcement ADD COLUMN approximate_age INTEGER;
                """)
        }
        migrator.registerMigration("v5") { db in
            // The pet's name the create request may carry; how and when the owner closed it;
            // a revision every change bumps (the ETag); and when it was taken down (the row
            // stays, its details erased, so its id and idempotency key answer 410 Gone).
            try db.execute(sql: """
                ALTER TABLE announcement ADD COLUMN pet_name TEXT;
                ALTER TABLE announcement ADD COLUMN closed_outcome TEXT;
                ALTER TABLE announcement ADD COLUMN closed_at REAL;
                ALTER TABLE announcement ADD COLUMN revision INTEGER NOT NULL DEFAULT 1;
                ALTER TABLE announcement ADD COLUMN deleted_at REAL;
                """)
        }
        migrator.registerMigration("v6") { db in
            // The gazetteer (GeoNames' populated places): names folded for lookup, and an R*Tree
            // over the points for the places near a point.
            try db.execute(sql: """
                CREATE TABLE place (
                    id INTEGER PRIMARY KEY,
                    name TEXT NOT NULL,
                    country_code TEXT NOT NULL,
                    population INTEGER NOT NULL,
                    latitude REAL NOT NULL,
                    longitude REAL NOT NULL
                );
                CREATE TABLE place_name (
                    folded TEXT NOT NULL,
                    place_id INTEGER NOT NULL REFERENCES place(id) ON DELETE CASCADE
                );
                CREATE INDEX place_name_folded ON place_name(folded, place_id);
                CREATE INDEX place_name_place ON place_name(place_id);
                CREATE VIRTUAL TABLE place_box USING rtree(id, min_latitude, max_latitude, min_longitude, max_longitude);
                ALTER TABLE announcement ADD COLUMN place_text TEXT;

                -- Live announcements with a location, as points, for searches near a place; kept
                -- by triggers, so every way a row changes keeps it right.
                CREATE VIRTUAL TABLE announcement_box USING rtree(position, min_latitude, max_latitude, min_longitude, max_longitude);
                INSERT INTO announcement_box
                    SELECT position, latitude, latitude, longitude, longitude FROM announcement
                    WHERE deleted_at IS NULL AND NOT (latitude = 0 AND longitude = 0);
                CREATE TRIGGER announcement_box_insert AFTER INSERT ON announcement
                    WHEN NEW.deleted_at IS NULL AND NOT (NEW.latitude = 0 AND NEW.longitude = 0)
                BEGIN
                    INSERT INTO announcement_box VALUES (NEW.position, NEW.latitude, NEW.latitude, NEW.longitude, NEW.longitude);
                END;
                CREATE TRIGGER announcement_box_update AFTER UPDATE OF latitude, longitude, deleted_at ON announcement
                BEGIN
                    DELETE FROM announcement_box WHERE position = OLD.position;
                    INSERT INTO announcement_box SELECT NEW.position, NEW.latitude, NEW.latitude, NEW.longitude, NEW.longitude
                        WHERE NEW.deleted_at IS NULL AND NOT (NEW.latitude = 0 AND NEW.longitude = 0);
                END;
                CREATE TABLE photo_signature (
                    photo_key TEXT PRIMARY KEY NOT NULL,
                    signature TEXT NOT NULL
                );
                CREATE TRIGGER announcement_box_delete AFTER DELETE ON announcement
                BEGIN
                    DELETE FROM announcement_box WHERE position = OLD.position;
                END;
                """)
        }
        migrator.registerMigration("v7") { db in
            // Where each place belongs (``PlaceHierarchy``), worked out at import: its first-order
            // division and feature code as the file gave them, whether it is a section of a larger
            // place, and the larger place it is described with. `ranked` is 0 for a gazetteer
            // imported before (its places are then placed among their neighbours when described).
            try db.execute(sql: """
                ALTER TABLE place ADD COLUMN admin1_code TEXT;
                ALTER TABLE place ADD COLUMN feature_code TEXT;
                ALTER TABLE place ADD COLUMN section INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE place ADD COLUMN parent_id INTEGER;
                ALTER TABLE place ADD COLUMN ranked INTEGER NOT NULL DEFAULT 0;
                """)
        }
        migrator.registerMigration("v8") { db in
            // A pet found by its microchip: the open announcements with a number, by number
            // (newest first within one).
            try db.execute(sql: """
                CREATE INDEX announcement_chip ON announcement(microchip_number, position)
                    WHERE microchip_number IS NOT NULL AND deleted_at IS NULL AND closed_outcome IS NULL;
                """)
        }
        migrator.registerMigration("v9") { db in
            // The report forms' pending photos: stored in the photo store, kept for a day.
            try db.execute(sql: """
                CREATE TABLE pending_upload (
                    token_digest TEXT PRIMARY KEY NOT NULL,
                    browser_digest TEXT NOT NULL,
                    photo_key TEXT NOT NULL,
                    width INTEGER NOT NULL,
                    height INTEGER NOT NULL,
                    latitude REAL,
                    longitude REAL,
                    created_at REAL NOT NULL
                );
                CREATE INDEX pending_upload_photo_key ON pending_upload(photo_key);
                CREATE INDEX pending_upload_created ON pending_upload(created_at);
                """)
        }
        migrator.registerMigration("v10") { db in
            // The owner's sessions in browsers: a cookie names the generation it was made in.
            try db.execute(sql: "ALTER TABLE announcement ADD COLUMN session_generation INTEGER NOT NULL DEFAULT 0")
        }
        migrator.registerMigration("v11") { db in
            try db.execute(sql: OutboxSchema.sqlite)
        }
        return migrator
    }()
}
