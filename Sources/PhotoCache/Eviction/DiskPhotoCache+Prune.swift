import Foundation
import GRDB

extension DiskPhotoCache {
    /// Evicts least-recently-used entries beyond `limits` (never pinned ones) and sweeps the
    /// leftovers of interrupted writes.
    /// - Parameters:
    ///   - limits: the limits to enforce; by default the cache's own.
    ///   - dryRun: report what would be removed without removing anything.
    /// - Returns: what was (or would be) freed.
    public func prune(limits: CacheLimits? = nil, dryRun: Bool = false) throws(CacheError) -> PruneReport {
        let limits = limits ?? self.limits
        let date = now()
        return try removing(dryRun: dryRun) { db in
            try EvictionPlanner.victims(db, limits: limits, now: date)
        }
    }

    /// Removes every entry except the pinned ones (or every entry, and every pin, when
    /// `includingPinned`), and sweeps the leftovers of interrupted writes.
    /// - Parameters:
    ///   - includingPinned: also remove the current attachments of the report flows.
    ///   - dryRun: report what would be removed without removing anything.
    /// - Returns: what was (or would be) freed.
    public func clear(includingPinned: Bool = false, dryRun: Bool = false) throws(CacheError) -> PruneReport {
        try removing(dryRun: dryRun) { db in
            try EvictionPlanner.all(db, includingPinned: includingPinned)
        }
    }

    /// Deletes the rows `choose` picks in one transaction, then their files, then the leftovers;
    /// all under the cache lock. In a dry run, only reports.
    private func removing(dryRun: Bool, choose: @escaping (Database) throws -> [EvictedEntry]) throws(CacheError) -> PruneReport {
        let known = try knownPaths()
        let candidates = DebrisSweeper.temporaryLeftovers(layout) + DebrisSweeper.orphanCandidates(layout, knownPaths: known)
        if dryRun {
            let evicted = try index.read(choose)
            let leftovers = try index.read { db in try DebrisSweeper.confirmed(candidates, db) }
            return PruneReport(evicted: evicted, leftovers: leftovers, dryRun: true)
        }
        return try locked {
            let evicted = try index.write { db in
                let victims = try choose(db)
                try EntryRow.delete(keys: victims.map(\.key), db)
                return victims
            }
            removeFiles(of: evicted)
            let leftovers = try DebrisSweeper.remove(candidates, layout: layout, index: index)
            return PruneReport(evicted: evicted, leftovers: leftovers, dryRun: false)
        }
    }

    /// The paths of every row, for telling orphan files apart.
    func knownPaths() throws(CacheError) -> Set<String> {
        try index.read { db in
            var paths = Set<String>()
            let cursor = try String.fetchCursor(db, sql: "SELECT path FROM entry")
            while let path = try cursor.next() { paths.insert(path) }
            return paths
        }
    }
}
