import Foundation

/// How much the cache may hold: beyond these limits, least-recently-used entries that no report
/// pins are evicted.
public struct CacheLimits: Sendable, Hashable, Codable {
    /// Total size of the cached files, in bytes. Default 512 MiB.
    public var maxBytes: Int
    /// Entries not used (added or hit) for longer than this are evicted. Default 30 days.
    public var maxAge: TimeInterval

    /// 512 MiB, 30 days.
    public static let `default` = CacheLimits()

    public init(maxBytes: Int = 512 << 20, maxAge: TimeInterval = 30 * 86_400) {
        self.maxBytes = maxBytes
        self.maxAge = maxAge
    }
}
