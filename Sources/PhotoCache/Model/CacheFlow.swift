/// The report flows that each have one "current attachment" pinned in the cache
/// (the original app's `photoAttachmentCache`).
public enum CacheFlow: String, Sendable, Hashable, Codable, CaseIterable {
    /// The missing-pet report.
    case missing
    /// The found-pet report.
    case found
}
