/// What `prune` or `clear` removed, or would remove in a dry run.
public struct PruneReport: Sendable, Hashable {
    /// Entries whose row and file were (or would be) removed, least recently used first.
    public var evicted: [EvictedEntry]
    /// Leftovers of interrupted writes that were (or would be) removed.
    public var leftovers: [LeftoverFile]
    /// Nothing was removed; the report says what would have been.
    public var dryRun: Bool

    public init(evicted: [EvictedEntry], leftovers: [LeftoverFile], dryRun: Bool) {
        self.evicted = evicted
        self.leftovers = leftovers
        self.dryRun = dryRun
    }

    public var evictedBytes: Int { evicted.reduce(0) { $0 + $1.bytes } }
    public var leftoverBytes: Int { leftovers.reduce(0) { $0 + $1.bytes } }
    /// Everything freed (or that would be).
    public var freedBytes: Int { evictedBytes + leftoverBytes }
}
