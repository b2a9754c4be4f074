import Foundation

/// An entry removed (or, in a dry run, to be removed) by eviction, prune or clear.
public struct EvictedEntry: Sendable, Hashable {
    public var key: String
    /// Relative to the cache folder.
    public var path: String
    public var bytes: Int
    public var lastAccess: Date

    public init(key: String, path: String, bytes: Int, lastAccess: Date) {
        self.key = key
        self.path = path
        self.bytes = bytes
        self.lastAccess = lastAccess
    }

    init(_ entry: CacheEntry) {
        self.init(key: entry.key, path: entry.path, bytes: entry.bytes, lastAccess: entry.lastAccess)
    }
}
