import Foundation

extension DiskPhotoCache {
    /// Opens the cache at `location` after replacing a damaged index with one rebuilt from the
    /// cached files (`cache verify --repair` when opening throws
    /// ``CacheError/indexCorrupt(path:detail:)``).
    ///
    /// The damaged database (and its `-wal`, `-shm`) is removed; the files are the truth. What
    /// only the index knew (source names, capture dates, pins) is lost.
    /// - Returns: the opened cache; its ``indexRebuild`` says what was imported.
    public static func rebuildIndex(location: CacheLocation, limits: CacheLimits = .default) throws(CacheError) -> DiskPhotoCache {
        let layout = CacheLayout(root: location.root)
        try layout.createDirectories()
        let lock = try CacheLock(path: layout.lockPath)
        try mapped(indexPath: layout.indexPath) {
            try lock.withLock {
                for suffix in ["", "-wal", "-shm"] { try Posix.removeFile(layout.indexPath + suffix) }
            }
        }
        return try DiskPhotoCache(location: location, limits: limits)
    }
}
