import Foundation
import GRDB
import PhotoPipeline

extension DiskPhotoCache {
    /// Prepares the photo at `path` into the cache, or finds it there already.
    ///
    /// On a hit (same source bytes, same output-shaping options) nothing is decoded or encoded:
    /// the entry's last access is updated and its attachment returned. On a miss the pipeline runs,
    /// the file is written atomically and then indexed. Either way the entry is pinned as `flow`'s
    /// current attachment when a flow is given, and least-recently-used entries beyond
    /// ``limits`` are evicted (never pinned ones, never this one).
    /// - Parameters:
    ///   - path: the source photo (any name; JPEG, PNG, WebP, HEIC or AVIF by its bytes).
    ///   - options: the pipeline options; `threads` and `limits` do not change the cache key.
    ///   - flow: the report flow whose current attachment this becomes, replacing the previous one.
    /// - Returns: the cached photo.
    /// - Throws: ``CacheError/photo(_:)`` when the photo is refused; ``CacheError/diskFull(path:)``
    ///   and the other ``CacheError`` cases when the cache cannot store it (the cache is unchanged).
    public func add(fileAt path: String, options: PrepareOptions = PrepareOptions(),
                    flow: CacheFlow? = nil) throws(CacheError) -> PhotoAttachment {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.read(path, limit: options.limits.maxInputBytes)
        } catch {
            throw .photo(error)
        }
        return try add(bytes, sourceFileName: (path as NSString).lastPathComponent, options: options, flow: flow)
    }

    /// Prepares a photo given as bytes into the cache, or finds it there already.
    /// See ``add(fileAt:options:flow:)``.
    public func add(_ bytes: [UInt8], sourceFileName: String?, options: PrepareOptions = PrepareOptions(),
                    flow: CacheFlow? = nil) throws(CacheError) -> PhotoAttachment {
        let key = CacheKey(source: bytes, options: options)
        if let hit = try locked({ try reuse(key.value, flow: flow, at: now()) }) {
            return attachment(hit, wasHit: true)
        }
        let photo: PreparedPhoto
        let started = ContinuousClock.now
        do {
            photo = try preparer(bytes, options)
        } catch {
            throw .photo(error)
        }
        let pipelineDuration = ContinuousClock.now - started
        let date = now()
        let entry = CacheEntry(
            key: key.value,
            path: CacheLayout.relativePath(key: key.value, fileExtension: photo.format.mediaType.preferredExtension),
            mimeType: photo.mimeType, bytes: photo.byteCount, width: photo.size.width, height: photo.size.height,
            sourceFileName: sourceFileName, sourceDigest: key.sourceDigest, fileDigest: Digest.sha256(photo.data),
            capturedAt: photo.source.capturedAt, created: date, lastAccess: date, pins: flow.map { [$0] } ?? [])
        let staged = try StagedFile.write(photo.data, in: layout.tmpPath, namePrefix: key.value, writer: writer)
        defer { staged.discard() }
        let stored = try locked { () throws -> CacheEntry in
            // Another process may have stored the same photo while this one prepared it.
            if let existing = try reuse(key.value, flow: flow, at: date) { return existing }
            try store(entry, from: staged, flow: flow)
            return entry
        }
        var added = attachment(stored, wasHit: false)
        added.pipelineDuration = pipelineDuration
        return added
    }

    /// Under the lock: renames the staged file into place, then inserts its row (and pin) and
    /// evicts, in one transaction. On failure the renamed file is removed again.
    private func store(_ entry: CacheEntry, from staged: StagedFile, flow: CacheFlow?) throws {
        let folder = layout.parentPath(entry.path)
        let finalPath = layout.absolutePath(entry.path)
        try Posix.makeDirectory(folder)
        do {
            try staged.commit(to: finalPath, in: folder)
            let evicted = try index.write { db in
                try EntryRow.insert(entry, db)
                if let flow { try EntryRow.pin(key: entry.key, flow: flow, at: entry.lastAccess, db) }
                return try evict(db, at: entry.lastAccess, protecting: [entry.key])
            }
            removeFiles(of: evicted)
        } catch {
            unlink(finalPath)
            throw error
        }
    }

    /// Under the lock, in one transaction: the entry with `key` if its file is intact, with its
    /// last access set to `date`, pinned for `flow`, and the limits enforced. A row whose file has
    /// gone or changed size (outside the cache's control) is dropped, and `nil` returned.
    func reuse(_ key: String, flow: CacheFlow?, at date: Date) throws -> CacheEntry? {
        let (entry, evicted) = try index.write { db -> (CacheEntry?, [EvictedEntry]) in
            guard var entry = try EntryRow.fetch(key: key, db) else { return (nil, []) }
            guard Posix.regularFileSize(layout.absolutePath(entry.path)) == entry.bytes else {
                try EntryRow.delete(keys: [key], db)
                return (nil, [EvictedEntry(entry)])
            }
            _ = try EntryRow.touch(key: key, at: date, db)
            entry.lastAccess = date
            if let flow, !entry.pins.contains(flow) {
                try EntryRow.pin(key: key, flow: flow, at: date, db)
                entry.pins = (entry.pins + [flow]).sorted { $0.rawValue < $1.rawValue }
            }
            return (entry, try evict(db, at: date, protecting: [key]))
        }
        removeFiles(of: evicted)
        return entry
    }

    /// Deletes the rows of the entries beyond ``limits`` and returns them (their files are
    /// removed once the transaction commits).
    private func evict(_ db: Database, at date: Date, protecting keys: Set<String>) throws -> [EvictedEntry] {
        let victims = try EvictionPlanner.victims(db, limits: limits, now: date, protecting: keys)
        try EntryRow.delete(keys: victims.map(\.key), db)
        return victims
    }

    /// Unlinks the files of entries whose rows are gone; a file that cannot be removed becomes an
    /// orphan, which the next prune or verify sweeps.
    func removeFiles(of entries: [EvictedEntry]) {
        for entry in entries { unlink(layout.absolutePath(entry.path)) }
    }
}
