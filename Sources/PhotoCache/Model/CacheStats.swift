import Foundation

/// A summary of the cache, computed from the index alone (no directory walk).
public struct CacheStats: Sendable, Hashable {
    public var entryCount: Int
    /// Total size of the cached files, in bytes.
    public var totalBytes: Int
    public var limits: CacheLimits
    /// When the oldest and newest entries were created.
    public var oldestCreated: Date?
    public var newestCreated: Date?
    /// The least recent use of any entry (the next to go when the cache is over its limits).
    public var leastRecentAccess: Date?
    /// The current attachment of each flow that has one.
    public var pinned: [CacheFlow: CacheEntry]
    /// Distinct entries pinned by at least one flow, and their size.
    public var pinnedCount: Int
    public var pinnedBytes: Int

    public init(entryCount: Int, totalBytes: Int, limits: CacheLimits, oldestCreated: Date?, newestCreated: Date?,
                leastRecentAccess: Date?, pinned: [CacheFlow: CacheEntry]) {
        self.entryCount = entryCount
        self.totalBytes = totalBytes
        self.limits = limits
        self.oldestCreated = oldestCreated
        self.newestCreated = newestCreated
        self.leastRecentAccess = leastRecentAccess
        self.pinned = pinned
        let distinct = Dictionary(pinned.values.map { ($0.key, $0.bytes) }, uniquingKeysWith: { first, _ in first })
        self.pinnedCount = distinct.count
        self.pinnedBytes = distinct.values.reduce(0, +)
    }
}
