import Foundation
import PhotoPipeline

/// The disk photo cache: where every prepared photo lives until it is uploaded.
///
/// Files are content-addressed (`photos/ab/abcdef….jpg`, the key being SHA-256 over the source
/// bytes and the output-shaping options) and described by an SQLite index. Writes are atomic
/// (temporary file in the cache's own `tmp/`, fsync, rename, folder fsync, then the index row in a
/// transaction), so a process killed at any moment leaves no row pointing at a missing or partial
/// file; every change to files and rows holds one cross-process lock. Beyond the
/// ``CacheLimits``, least-recently-used entries are evicted, except those pinned as a report
/// flow's current attachment.
///
/// Safe to share between threads and between processes.
public final class DiskPhotoCache: Sendable {
    /// Where the cache is, and which rule chose it.
    public let location: CacheLocation
    /// The limits applied after each add.
    public let limits: CacheLimits
    /// Set when opening found the index missing and rebuilt it from the cached files.
    public let indexRebuild: IndexRebuild?

    let layout: CacheLayout
    let index: CacheIndex
    let lock: CacheLock
    let writer: any CacheFileWriting
    let preparer: @Sendable ([UInt8], PrepareOptions) throws(PhotoError) -> PreparedPhoto
    let now: @Sendable () -> Date

    /// Opens the cache at `location`, creating its folders (mode 0700) and index if needed.
    /// - Parameters:
    ///   - location: usually ``CacheLocation/resolve(flag:environment:)``.
    ///   - limits: the size and age limits applied after each add.
    /// - Throws: ``CacheError/cannotCreateDirectory(path:reason:)`` for an unwritable location,
    ///   ``CacheError/indexCorrupt(path:detail:)`` when the index is damaged (see
    ///   ``rebuildIndex(location:limits:)``).
    public convenience init(location: CacheLocation, limits: CacheLimits = .default) throws(CacheError) {
        try self.init(location: location, limits: limits, writer: SystemFileWriter(),
                      preparer: { (bytes, options) throws(PhotoError) in try PhotoPipeline.prepare(bytes, options: options) },
                      now: { Date() })
    }

    /// Opens an existing cache for reading only (stats, listing, verifying without repair):
    /// nothing is created or changed, so it works without write access to the cache.
    /// - Returns: The cache, or `nil` when there is none at `location` yet (no index).
    /// - Throws: ``CacheError`` when the index cannot be read.
    public static func openReadOnly(location: CacheLocation, limits: CacheLimits = .default) throws(CacheError) -> DiskPhotoCache? {
        guard Posix.exists(CacheLayout(root: location.root).indexPath) else { return nil }
        return try DiskPhotoCache(location: location, limits: limits, writer: SystemFileWriter(),
                                  preparer: { (_, _) throws(PhotoError) in throw .invalidOption("The cache was opened read-only.") },
                                  now: { Date() }, readOnly: true)
    }

    /// The designated initialiser, with the file writer, the pipeline and the clock replaceable for tests.
    init(location: CacheLocation, limits: CacheLimits, writer: any CacheFileWriting,
         preparer: @escaping @Sendable ([UInt8], PrepareOptions) throws(PhotoError) -> PreparedPhoto,
         now: @escaping @Sendable () -> Date, readOnly: Bool = false) throws(CacheError) {
        self.location = location
        self.limits = limits
        self.writer = writer
        self.preparer = preparer
        self.now = now
        let layout = CacheLayout(root: location.root)
        self.layout = layout
        if readOnly {
            lock = try CacheLock(path: layout.lockPath, readOnly: true)
            index = try CacheIndex(path: layout.indexPath, readOnly: true)
            guard try index.isMigrated() else {
                throw .indexUnavailable(path: layout.indexPath, detail: "the index was never completed; run `petspot cache verify --repair`")
            }
            indexRebuild = nil
            return
        }
        try layout.createDirectories()
        let lock = try CacheLock(path: layout.lockPath)
        self.lock = lock
        // Opening holds the lock: GRDB sets up WAL mode with a write on a fresh index, which would
        // fail at once (SQLITE_BUSY_SNAPSHOT, no busy wait) when another process opens it too.
        let clock = now
        (index, indexRebuild) = try Self.mapped(indexPath: layout.indexPath) {
            try lock.withLock { () throws -> (CacheIndex, IndexRebuild?) in
                let indexExisted = Posix.exists(layout.indexPath)
                let index = try CacheIndex(path: layout.indexPath)
                if indexExisted, try index.isMigrated() { return (index, nil) }
                try index.migrate()
                guard !indexExisted else { return (index, nil) }
                let rebuild = try IndexRebuilder.importFiles(layout: layout, index: index, now: clock())
                return (index, rebuild.importedFiles + rebuild.removedFiles.count > 0 ? rebuild : nil)
            }
        }
    }

    /// The attachment for a cached entry.
    func attachment(_ entry: CacheEntry, wasHit: Bool) -> PhotoAttachment {
        PhotoAttachment(cachedURL: URL(fileURLWithPath: layout.absolutePath(entry.path)), mimeType: entry.mimeType,
                        fileSize: entry.bytes, width: entry.width, height: entry.height, capturedAt: entry.capturedAt,
                        cacheKey: entry.key, sourceFileName: entry.sourceFileName, wasHit: wasHit)
    }

    /// Runs `body` holding the cache lock, turning whatever it throws into a ``CacheError``.
    func locked<T>(_ body: () throws -> T) throws(CacheError) -> T {
        try Self.mapped(indexPath: index.path) { try lock.withLock(body) }
    }

    /// Runs `body`, turning whatever it throws into a ``CacheError``.
    static func mapped<T>(indexPath: String, _ body: () throws -> T) throws(CacheError) -> T {
        do {
            return try body()
        } catch {
            throw CacheIndex.cacheError(error, path: indexPath)
        }
    }
}
