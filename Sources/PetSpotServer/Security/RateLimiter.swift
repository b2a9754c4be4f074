import Foundation
import Synchronization

/// Per-client request rates for the open endpoints, as token buckets: a client may burst up to
/// `burst` requests of a kind, then one more every `60 / perMinute` seconds.
public struct RateLimits: Sendable, Hashable {
    public struct Rate: Sendable, Hashable {
        public var perMinute: Double
        public var burst: Int

        public init(perMinute: Double, burst: Int) {
            self.perMinute = perMinute
            self.burst = burst
        }
    }

    /// `POST /api/v1/announcements`.
    public var creates = Rate(perMinute: 10, burst: 10)
    /// `POST /api/v1/announcements/{id}/photos`.
    public var uploads = Rate(perMinute: 20, burst: 20)
    /// `GET /api/v1/announcements` pages.
    public var listPages = Rate(perMinute: 120, burst: 60)
    /// One announcement's details, `GET /api/v1/announcements/{id}` or `/pets/{id}` (not its
    /// photos): far more than a person browses (300 an hour), far less than a scraper wants.
    public var detailReads = Rate(perMinute: 5, burst: 300)

    public init() {}
}

/// The token buckets, one per (kind, client address), in memory: a restart forgives everyone,
/// which is fine for a rate (the password throttle, which must survive restarts, is stored).
/// Full buckets are forgotten once the table grows, so a flood of addresses cannot fill memory.
final class RateLimiter: Sendable {
    enum Kind: String, Sendable {
        case create, upload, listPage = "list", detail
    }

    private struct Bucket {
        var tokens: Double
        var updated: Date
    }

    private let limits: RateLimits
    private let buckets = Mutex<[String: Bucket]>([:])
    /// Entries kept before full buckets are dropped.
    private let tableLimit: Int

    init(limits: RateLimits, tableLimit: Int = 100_000) {
        self.limits = limits
        self.tableLimit = tableLimit
    }

    private func rate(_ kind: Kind) -> RateLimits.Rate {
        switch kind {
        case .create: limits.creates
        case .upload: limits.uploads
        case .listPage: limits.listPages
        case .detail: limits.detailReads
        }
    }

    /// Takes one token for `client`.
    /// - Returns: `nil` when granted, else the seconds until a token is back.
    func take(_ kind: Kind, client: String, now: Date = Date()) -> Int? {
        let rate = rate(kind)
        let perSecond = rate.perMinute / 60
        let capacity = Double(max(1, rate.burst))
        return buckets.withLock { table in
            let key = kind.rawValue + " " + client
            var bucket = table[key] ?? Bucket(tokens: capacity, updated: now)
            bucket.tokens = min(capacity, bucket.tokens + max(0, now.timeIntervalSince(bucket.updated)) * perSecond)
            bucket.updated = now
            defer {
                table[key] = bucket
                if table.count > tableLimit { Self.forgetFull(&table, now: now, limits: limits) }
            }
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                return nil
            }
            guard perSecond > 0 else { return 3600 }
            return max(1, Int(((1 - bucket.tokens) / perSecond).rounded(.up)))
        }
    }

    /// Drops buckets that have refilled (they are the same as no entry).
    private static func forgetFull(_ table: inout [String: Bucket], now: Date, limits: RateLimits) {
        let slowest = [limits.creates, limits.uploads, limits.listPages, limits.detailReads].map { Double($0.burst) / max($0.perMinute / 60, 1e-9) }.max() ?? 0
        table = table.filter { now.timeIntervalSince($0.value.updated) < slowest }
    }
}
