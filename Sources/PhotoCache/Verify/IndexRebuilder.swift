import Foundation
import PhotoPipeline

/// Rebuilds index rows from the cached files, for when the index was lost or damaged.
///
/// A file keeps its key (its name), type, size, pixel size and digest; what only the index knew —
/// the source name and digest, the capture date, the pins — stays unknown. The file's
/// modification time stands in for its creation and last access.
enum IndexRebuilder {
    /// Adds a row for every cached photo under `photos/` that has none, and removes files that are
    /// not cached photos (a wrong name, not a JPEG/PNG/WebP). Call it holding the cache lock.
    static func importFiles(layout: CacheLayout, index: CacheIndex, now: Date) throws -> IndexRebuild {
        let candidates = DebrisSweeper.orphanCandidates(layout, knownPaths: [])
        var entries: [CacheEntry] = []
        var removed: [String] = []
        for file in candidates {
            if let entry = entry(for: file.path, layout: layout, now: now) {
                entries.append(entry)
            } else if unlink(layout.absolutePath(file.path)) == 0 {
                removed.append(file.path)
            }
        }
        let imported = try index.write { db in
            var count = 0
            for entry in entries where try EntryRow.fetch(key: entry.key, db) == nil {
                try EntryRow.insert(entry, db)
                count += 1
            }
            return count
        }
        return IndexRebuild(importedFiles: imported, removedFiles: removed)
    }

    /// The row for a cached file, or `nil` when it is not one.
    static func entry(for relative: String, layout: CacheLayout, now: Date) -> CacheEntry? {
        let parts = relative.split(separator: "/")
        guard parts.count == 3, parts[0] == "photos" else { return nil }
        let nameParts = parts[2].split(separator: ".")
        guard nameParts.count == 2, Hex.isDigest(nameParts[0]), nameParts[0].hasPrefix(parts[1]) else { return nil }
        let path = layout.absolutePath(relative)
        guard let bytes = try? FileIO.read(path), let info = try? PhotoPipeline.inspect(bytes),
              [.jpeg, .png, .webp].contains(info.type), info.type.preferredExtension == nameParts[1] else { return nil }
        let date = Posix.modificationDate(path) ?? now
        return CacheEntry(key: String(nameParts[0]), path: relative, mimeType: info.type.mimeType, bytes: bytes.count,
                          width: info.uprightSize.width, height: info.uprightSize.height, sourceFileName: nil,
                          sourceDigest: nil, fileDigest: Digest.sha256(bytes), capturedAt: info.capturedAt,
                          created: date, lastAccess: date)
    }
}
