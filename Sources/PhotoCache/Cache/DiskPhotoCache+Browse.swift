import Foundation
import GRDB

extension DiskPhotoCache {
    /// Count, size, limits, oldest and newest entry, and the pinned entries — from the index
    /// alone (a running total and indexed MIN/MAX), so it stays instant with 100 000 entries.
    public func stats() throws(CacheError) -> CacheStats {
        let limits = self.limits
        return try index.read { db in
            let totals = try EntryRow.totals(db)
            let row = try Row.fetchOne(db, sql: """
                SELECT (SELECT MIN(created) FROM entry), (SELECT MAX(created) FROM entry),
                       (SELECT MIN(last_access) FROM entry)
                """)
            let date = { (value: Double?) in value.map(Date.init(timeIntervalSince1970:)) }
            var pinned: [CacheFlow: CacheEntry] = [:]
            for pin in try Row.fetchAll(db, sql: "SELECT flow, key FROM pin") {
                guard let flow = CacheFlow(rawValue: pin[0]), let entry = try EntryRow.fetch(key: pin[1], db) else { continue }
                pinned[flow] = entry
            }
            return CacheStats(entryCount: totals.count, totalBytes: totals.bytes, limits: limits,
                              oldestCreated: date(row?[0]), newestCreated: date(row?[1]),
                              leastRecentAccess: date(row?[2]), pinned: pinned)
        }
    }

    /// The entry with `key`, if any.
    public func entry(forKey key: String) throws(CacheError) -> CacheEntry? {
        try index.read { db in try EntryRow.fetch(key: key, db) }
    }

    /// Streams the entries in `order` to `body` as they are read (one consistent snapshot), so the
    /// first rows arrive at once whatever the size of the cache.
    /// - Parameters:
    ///   - order: every order is served by an index.
    ///   - limit: at most this many entries.
    ///   - body: called for each entry; return `false` to stop.
    public func forEachEntry(sortedBy order: CacheSortOrder = .lastAccess, limit: Int? = nil,
                             _ body: (CacheEntry) -> Bool) throws(CacheError) {
        let orderBy = switch order {
        case .lastAccess: "last_access DESC"
        case .leastRecentlyUsed: "last_access ASC"
        case .size: "bytes DESC"
        case .created: "created DESC"
        }
        let limitClause = limit.map { " LIMIT \(max(0, $0))" } ?? ""
        try index.read { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT \(EntryRow.columns) FROM entry ORDER BY \(orderBy)\(limitClause)")
            while let row = try rows.next() {
                guard body(EntryRow.entry(row)) else { break }
            }
        }
    }

    /// All entries in `order` (see ``forEachEntry(sortedBy:limit:_:)`` to stream them instead).
    public func entries(sortedBy order: CacheSortOrder = .lastAccess, limit: Int? = nil) throws(CacheError) -> [CacheEntry] {
        var entries: [CacheEntry] = []
        try forEachEntry(sortedBy: order, limit: limit) { entries.append($0); return true }
        return entries
    }
}
