#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GRDB

/// Finds and removes what interrupted writes leave behind: temporary files whose writer is gone,
/// and photo files without an index row.
///
/// Neither can be told from a write in progress by looking: a temporary file's writer holds an
/// `flock` on it, and a photo's file and row only appear together under the cache lock. So
/// candidates are found without the lock and confirmed just before removal.
enum DebrisSweeper {
    /// Files in `tmp/` that no live process holds.
    static func temporaryLeftovers(_ layout: CacheLayout) -> [LeftoverFile] {
        Posix.directoryEntries(layout.tmpPath).compactMap { item in
            guard !item.isDirectory else { return nil }
            let relative = "tmp/" + item.name
            let ownerless = withOwnerlessFile(layout.absolutePath(relative)) { _ in true } ?? false
            guard ownerless else { return nil }
            return LeftoverFile(path: relative, bytes: Posix.regularFileSize(layout.absolutePath(relative)) ?? 0, kind: .temporary)
        }
    }

    /// Files under `photos/` whose path is not in `knownPaths` (candidates: see ``isOrphan(_:_:)``).
    static func orphanCandidates(_ layout: CacheLayout, knownPaths: Set<String>) -> [LeftoverFile] {
        var found: [LeftoverFile] = []
        for folder in Posix.directoryEntries(layout.photosPath) {
            let folderPath = "photos/" + folder.name
            let names = folder.isDirectory ? Posix.directoryEntries(layout.absolutePath(folderPath)).filter { !$0.isDirectory }.map(\.name) : []
            let files = folder.isDirectory ? names.map { folderPath + "/" + $0 } : [folderPath]
            for relative in files where !knownPaths.contains(relative) {
                found.append(LeftoverFile(path: relative, bytes: Posix.regularFileSize(layout.absolutePath(relative)) ?? 0, kind: .orphan))
            }
        }
        return found
    }

    /// Whether no row points at `relative`; call it holding the cache lock.
    static func isOrphan(_ relative: String, _ db: Database) throws -> Bool {
        let name = (relative.split(separator: "/").last).map(String.init) ?? relative
        let key = name.split(separator: ".").first.map(String.init) ?? name
        guard Hex.isDigest(key) else { return true }
        let path = try String.fetchOne(db, sql: "SELECT path FROM entry WHERE key = ?", arguments: [key])
        return path != relative
    }

    /// The candidates that are still leftovers: temporary files, and orphans still without a row.
    static func confirmed(_ candidates: [LeftoverFile], _ db: Database) throws -> [LeftoverFile] {
        try candidates.filter { candidate in
            if candidate.kind == .temporary { return true }
            return try isOrphan(candidate.path, db)
        }
    }

    /// Removes leftovers: temporary files only while no writer holds them, orphans only when still
    /// rowless. Call it holding the cache lock.
    /// - Returns: the files actually removed.
    static func remove(_ files: [LeftoverFile], layout: CacheLayout, index: CacheIndex) throws -> [LeftoverFile] {
        let orphans = try index.read { db in try confirmed(files.filter { $0.kind == .orphan }, db) }
        var removed: [LeftoverFile] = []
        for file in orphans where unlink(layout.absolutePath(file.path)) == 0 {
            removed.append(file)
        }
        for file in files where file.kind == .temporary {
            let gone = withOwnerlessFile(layout.absolutePath(file.path)) { path in unlink(path) == 0 } ?? false
            if gone { removed.append(file) }
        }
        return removed
    }

    /// Runs `body` holding the `flock` of the file at `path` when no other process holds it and the
    /// name still belongs to the locked file; `nil` otherwise.
    private static func withOwnerlessFile<T>(_ path: String, _ body: (String) -> T) -> T? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return nil }
        var opened = stat(), named = stat()
        guard fstat(fd, &opened) == 0, stat(path, &named) == 0, opened.st_ino == named.st_ino, opened.st_dev == named.st_dev else {
            return nil
        }
        return body(path)
    }
}
