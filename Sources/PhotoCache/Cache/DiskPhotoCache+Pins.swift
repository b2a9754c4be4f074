import Foundation
import GRDB

extension DiskPhotoCache {
    /// Makes the entry with `key` the current attachment of `flow`, replacing the previous one
    /// (which stays cached, unpinned, until eviction).
    /// - Throws: ``CacheError/unknownEntry(key:)`` when there is no such entry.
    public func pin(key: String, for flow: CacheFlow) throws(CacheError) {
        let date = now()
        try locked {
            try index.write { db in
                guard try EntryRow.touch(key: key, at: date, db) else { throw CacheError.unknownEntry(key: key) }
                try EntryRow.pin(key: key, flow: flow, at: date, db)
            }
        }
    }

    /// Releases `flow`'s current attachment (the original app's `clearCurrent()`); the photo stays
    /// cached until eviction.
    public func unpin(flow: CacheFlow) throws(CacheError) {
        try locked {
            try index.write { db in
                try db.execute(sql: "DELETE FROM pin WHERE flow = ?", arguments: [flow.rawValue])
            }
        }
    }

    /// `flow`'s current attachment, if it has one.
    public func currentAttachment(for flow: CacheFlow) throws(CacheError) -> PhotoAttachment? {
        let entry = try index.read { db in
            try Row.fetchOne(db, sql: "SELECT \(EntryRow.columns) FROM entry WHERE key = (SELECT key FROM pin WHERE flow = ?)",
                             arguments: [flow.rawValue]).map(EntryRow.entry)
        }
        return entry.map { attachment($0, wasHit: true) }
    }
}
