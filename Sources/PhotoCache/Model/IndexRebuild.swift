/// What rebuilding the index from the cached files did.
public struct IndexRebuild: Sendable, Hashable {
    /// Photo files that got an index row again. Their source name, source digest, capture date and
    /// pins are not recoverable from the files and stay unknown.
    public var importedFiles: Int
    /// Files that were not cached photos (wrong name, not an image), removed; paths relative to the cache.
    public var removedFiles: [String]

    public init(importedFiles: Int, removedFiles: [String]) {
        self.importedFiles = importedFiles
        self.removedFiles = removedFiles
    }
}
