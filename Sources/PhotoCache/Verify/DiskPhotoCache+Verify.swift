import Foundation
import GRDB
import PhotoPipeline

extension DiskPhotoCache {
    /// Re-hashes every cached file and compares it with the index; finds leftovers of
    /// interrupted writes.
    ///
    /// Hashing runs without the lock, so other processes keep working; whatever looks wrong is
    /// checked again under the lock before it is reported or repaired.
    /// - Parameter repair: drop rows whose file is gone, remove damaged files (and their rows),
    ///   orphan files and temporary leftovers.
    /// - Returns: what was found, and whether it was repaired.
    public func verify(repair: Bool = false) throws(CacheError) -> VerifyReport {
        let rows = try index.read { db in
            try Row.fetchAll(db, sql: "SELECT key, path, bytes, file_digest FROM entry")
                .map { IndexedFile(key: $0[0], path: $0[1], bytes: $0[2], digest: $0[3]) }
        }
        let suspects = rows.compactMap { check($0) }
        let candidates = DebrisSweeper.temporaryLeftovers(layout)
            + DebrisSweeper.orphanCandidates(layout, knownPaths: Set(rows.map(\.path)))
        return try locked {
            let issues = try confirm(suspects)
            let leftovers = try index.read { db in try DebrisSweeper.confirmed(candidates, db) }
            guard repair else {
                return VerifyReport(checkedEntries: rows.count, issues: issues, leftovers: leftovers, repaired: false)
            }
            let dropped = issues.map { EvictedEntry(key: $0.key, path: $0.path, bytes: 0, lastAccess: Date()) }
            try index.write { db in try EntryRow.delete(keys: dropped.map(\.key), db) }
            removeFiles(of: dropped)
            let removed = try DebrisSweeper.remove(leftovers, layout: layout, index: index)
            return VerifyReport(checkedEntries: rows.count, issues: issues, leftovers: removed, repaired: true)
        }
    }

    /// Whether the file of `row` matches it; the issue when it does not.
    private func check(_ row: IndexedFile) -> VerifyIssue? {
        let path = layout.absolutePath(row.path)
        let bytes: [UInt8]
        do {
            bytes = try FileIO.read(path)
        } catch {
            guard Posix.exists(path) else { return VerifyIssue(key: row.key, path: row.path, problem: .missingFile) }
            let reason = if case .unreadableFile(_, let reason) = error { reason } else { error.description }
            return VerifyIssue(key: row.key, path: row.path, problem: .unreadable(reason: reason))
        }
        if bytes.count != row.bytes {
            return VerifyIssue(key: row.key, path: row.path, problem: .sizeMismatch(expected: row.bytes, actual: bytes.count))
        }
        if Digest.sha256(bytes) != row.digest {
            return VerifyIssue(key: row.key, path: row.path, problem: .contentMismatch)
        }
        return nil
    }

    /// The suspects whose row is still there, unchanged, and whose file is still bad; call it
    /// holding the lock (rows evicted or replaced meanwhile are not issues).
    private func confirm(_ suspects: [VerifyIssue]) throws -> [VerifyIssue] {
        guard !suspects.isEmpty else { return [] }
        return try index.read { db in
            try suspects.compactMap { suspect in
                guard let row = try Row.fetchOne(db, sql: "SELECT key, path, bytes, file_digest FROM entry WHERE key = ?",
                                                 arguments: [suspect.key]) else { return nil }
                return check(IndexedFile(key: row[0], path: row[1], bytes: row[2], digest: row[3]))
            }
        }
    }
}

/// The columns of an index row that verification needs.
private struct IndexedFile {
    let key: String
    let path: String
    let bytes: Int
    let digest: String
}
