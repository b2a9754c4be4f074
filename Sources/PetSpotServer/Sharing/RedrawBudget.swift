import Foundation
import Synchronization

/// How often one announcement's flyers and cards may be drawn: a token bucket per announcement,
/// `burst` draws, then one more every `interval` seconds. An owner who edits and asks for the card
/// in a loop makes a new one each time (the edit changes what it shows); this keeps that loop from
/// taking a core, while a person's edits, each followed by a preview, never meet it.
///
/// In memory, per replica; buckets that have refilled are forgotten once the table grows.
final class RedrawBudget: Sendable {
    let burst: Int
    let interval: TimeInterval
    private let buckets = Mutex<[String: (tokens: Double, updated: Date)]>([:])
    private let tableLimit: Int

    init(burst: Int = 10, interval: TimeInterval = 15, tableLimit: Int = 50_000) {
        self.burst = max(1, burst)
        self.interval = max(0.001, interval)
        self.tableLimit = tableLimit
    }

    /// Takes one draw for `announcement`.
    /// - Returns: `nil` when granted, else the whole seconds until the next draw is allowed.
    func take(_ announcement: String, now: Date) -> Int? {
        let capacity = Double(burst)
        return buckets.withLock { table in
            var bucket = table[announcement] ?? (capacity, now)
            bucket.tokens = min(capacity, bucket.tokens + max(0, now.timeIntervalSince(bucket.updated)) / interval)
            bucket.updated = now
            defer {
                table[announcement] = bucket
                if table.count > tableLimit {
                    let full = interval * capacity
                    table = table.filter { now.timeIntervalSince($0.value.updated) < full }
                }
            }
            guard bucket.tokens < 1 else {
                bucket.tokens -= 1
                return nil
            }
            return max(1, Int(((1 - bucket.tokens) * interval).rounded(.up)))
        }
    }
}
