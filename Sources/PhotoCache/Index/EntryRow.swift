import Foundation
import GRDB
import PhotoPipeline

/// Reading and writing ``CacheEntry`` as `entry` rows (by column position, which keeps listing
/// 100 000 rows cheap).
enum EntryRow {
    /// The columns every entry query selects, in the order ``entry(_:)`` reads them.
    static let columns = """
        key, path, mime_type, bytes, width, height, source_name, source_digest, file_digest, captured_at,
        created, last_access, (SELECT group_concat(flow) FROM pin WHERE pin.key = entry.key) AS pins
        """

    static func entry(_ row: Row) -> CacheEntry {
        let pins: String? = row[12]
        return CacheEntry(
            key: row[0], path: row[1], mimeType: row[2], bytes: row[3], width: row[4], height: row[5],
            sourceFileName: row[6], sourceDigest: row[7], fileDigest: row[8],
            capturedAt: (row[9] as String?).flatMap(CaptureDate.init(iso8601:)),
            created: Date(timeIntervalSince1970: row[10]),
            lastAccess: Date(timeIntervalSince1970: row[11]),
            pins: pins.map { $0.split(separator: ",").compactMap { CacheFlow(rawValue: String($0)) }.sorted { $0.rawValue < $1.rawValue } } ?? [])
    }

    /// Inserts `entry`; when another process inserted the same key first, only its last access is updated.
    static func insert(_ entry: CacheEntry, _ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO entry (key, path, mime_type, bytes, width, height, source_name, source_digest, file_digest,
                               captured_at, created, last_access)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(key) DO UPDATE SET last_access = excluded.last_access
            """, arguments: [
                entry.key, entry.path, entry.mimeType, entry.bytes, entry.width, entry.height, entry.sourceFileName,
                entry.sourceDigest, entry.fileDigest, entry.capturedAt?.iso8601,
                entry.created.timeIntervalSince1970, entry.lastAccess.timeIntervalSince1970,
            ])
    }

    /// The entry with `key`, if any.
    static func fetch(key: String, _ db: Database) throws -> CacheEntry? {
        try Row.fetchOne(db, sql: "SELECT \(columns) FROM entry WHERE key = ?", arguments: [key]).map(entry)
    }

    /// Sets the last access of `key` to `date`; `false` when there is no such entry.
    static func touch(key: String, at date: Date, _ db: Database) throws -> Bool {
        try db.execute(sql: "UPDATE entry SET last_access = ? WHERE key = ?", arguments: [date.timeIntervalSince1970, key])
        return db.changesCount > 0
    }

    /// Deletes the rows of `keys` (their pins go with them).
    static func delete(keys: [String], _ db: Database) throws {
        let statement = try db.cachedStatement(sql: "DELETE FROM entry WHERE key = ?")
        for key in keys { try statement.execute(arguments: [key]) }
    }

    /// Makes `key` the current attachment of `flow`, replacing the previous one.
    static func pin(key: String, flow: CacheFlow, at date: Date, _ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO pin (flow, key, pinned_at) VALUES (?, ?, ?)
            ON CONFLICT(flow) DO UPDATE SET key = excluded.key, pinned_at = excluded.pinned_at
            """, arguments: [flow.rawValue, key, date.timeIntervalSince1970])
    }

    /// The entry count and total bytes, from the `totals` row the triggers keep.
    static func totals(_ db: Database) throws -> (count: Int, bytes: Int) {
        let row = try Row.fetchOne(db, sql: "SELECT count, bytes FROM totals WHERE id = 1")
        return (row?[0] ?? 0, row?[1] ?? 0)
    }
}
