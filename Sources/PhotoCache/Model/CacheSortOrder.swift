/// How ``DiskPhotoCache/forEachEntry(sortedBy:limit:_:)`` orders the entries; every order is
/// served by an index, so the first rows arrive at once even with 100 000 entries.
public enum CacheSortOrder: String, Sendable, Hashable, CaseIterable {
    /// Most recently used first.
    case lastAccess = "last-access"
    /// Least recently used first (the eviction order).
    case leastRecentlyUsed = "lru"
    /// Largest first.
    case size
    /// Newest first.
    case created
}
