import Foundation
import GRDB

/// Chooses what to evict: entries not used for longer than the age limit, then the least recently
/// used until the total fits the size limit. Pinned entries are never chosen.
enum EvictionPlanner {
    /// The entries to evict, least recently used first.
    ///
    /// Walks the `last_access` index from the oldest and stops at the first entry that is both
    /// recent enough and not needed to get under the size limit, so the usual case (nothing to
    /// evict) reads one row whatever the size of the cache.
    static func victims(_ db: Database, limits: CacheLimits, now: Date,
                        protecting keys: Set<String> = []) throws -> [EvictedEntry] {
        var total = try EntryRow.totals(db).bytes
        let cutoff = now.timeIntervalSince1970 - limits.maxAge
        var victims: [EvictedEntry] = []
        let rows = try Row.fetchCursor(db, sql: """
            SELECT key, path, bytes, last_access FROM entry INDEXED BY entry_last_access
            WHERE key NOT IN (SELECT key FROM pin) ORDER BY last_access
            """)
        while let row = try rows.next() {
            let lastAccess: Double = row[3]
            guard lastAccess < cutoff || total > limits.maxBytes else { break }
            let key: String = row[0]
            if keys.contains(key) { continue }
            let bytes: Int = row[2]
            victims.append(EvictedEntry(key: key, path: row[1], bytes: bytes,
                                        lastAccess: Date(timeIntervalSince1970: lastAccess)))
            total -= bytes
        }
        return victims
    }

    /// Every entry, or every unpinned one, for `cache clear`.
    static func all(_ db: Database, includingPinned: Bool) throws -> [EvictedEntry] {
        let filter = includingPinned ? "" : "WHERE key NOT IN (SELECT key FROM pin)"
        return try Row.fetchAll(db, sql: "SELECT key, path, bytes, last_access FROM entry \(filter) ORDER BY last_access")
            .map { EvictedEntry(key: $0[0], path: $0[1], bytes: $0[2], lastAccess: Date(timeIntervalSince1970: $0[3])) }
    }
}
