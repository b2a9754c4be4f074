import GRDB

/// The index's tables, created by a GRDB migrator.
///
/// - `entry`: one row per cached file. Times are seconds since 1970 (REAL), indexed so that
///   eviction, `stats` and `list` never scan the table.
/// - `pin`: the current attachment of each report flow (at most one row per flow).
/// - `totals`: the entry count and total bytes, kept by triggers, so checking the size limit after
///   each add costs one row read whatever the size of the cache.
enum CacheSchema {
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS entry (
                    key TEXT PRIMARY KEY NOT NULL,
                    path TEXT NOT NULL,
                    mime_type TEXT NOT NULL,
                    bytes INTEGER NOT NULL,
                    width INTEGER NOT NULL,
                    height INTEGER NOT NULL,
                    source_name TEXT,
                    source_digest TEXT,
                    file_digest TEXT NOT NULL,
                    captured_at TEXT,
                    created REAL NOT NULL,
                    last_access REAL NOT NULL
                );
                CREATE INDEX IF NOT EXISTS entry_last_access ON entry(last_access);
                CREATE INDEX IF NOT EXISTS entry_created ON entry(created);
                CREATE INDEX IF NOT EXISTS entry_bytes ON entry(bytes);

                CREATE TABLE IF NOT EXISTS pin (
                    flow TEXT PRIMARY KEY NOT NULL,
                    key TEXT NOT NULL REFERENCES entry(key) ON DELETE CASCADE,
                    pinned_at REAL NOT NULL
                );
                CREATE INDEX IF NOT EXISTS pin_key ON pin(key);

                CREATE TABLE IF NOT EXISTS totals (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    count INTEGER NOT NULL,
                    bytes INTEGER NOT NULL
                );
                INSERT OR IGNORE INTO totals (id, count, bytes) VALUES (1, 0, 0);

                CREATE TRIGGER IF NOT EXISTS entry_inserted AFTER INSERT ON entry BEGIN
                    UPDATE totals SET count = count + 1, bytes = bytes + NEW.bytes WHERE id = 1;
                END;
                CREATE TRIGGER IF NOT EXISTS entry_deleted AFTER DELETE ON entry BEGIN
                    UPDATE totals SET count = count - 1, bytes = bytes - OLD.bytes WHERE id = 1;
                END;
                CREATE TRIGGER IF NOT EXISTS entry_resized AFTER UPDATE OF bytes ON entry BEGIN
                    UPDATE totals SET bytes = bytes - OLD.bytes + NEW.bytes WHERE id = 1;
                END;
                """)
        }
        return migrator
    }()
}
