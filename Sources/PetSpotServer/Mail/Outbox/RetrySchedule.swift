import Foundation

/// When a message the relay deferred (a 4xx, a dead or unreachable relay) is tried again, and
/// when trying stops: after each failed attempt the next waits the next delay of the list (the
/// last one repeats), until ``giveUpAfter`` has passed since the message was queued; then it is
/// recorded as failed.
///
/// The default, 1, 2, 5, 10, 20 and 40 minutes, then every hour, makes about 29 attempts in
/// 24 hours: a relay back within minutes delivers within minutes, and one down for a day is not
/// hammered.
public struct RetrySchedule: Sendable, Equatable {
    public var delays: [Duration]
    public var giveUpAfter: Duration

    public static let standard = RetrySchedule(
        delays: [.seconds(60), .seconds(120), .seconds(300), .seconds(600), .seconds(1200), .seconds(2400), .seconds(3600)],
        giveUpAfter: .seconds(24 * 3600))

    public init(delays: [Duration], giveUpAfter: Duration) {
        self.delays = delays.isEmpty ? [.seconds(60)] : delays
        self.giveUpAfter = giveUpAfter
    }

    /// When to try again after `attempts` failed attempts of a message queued at `queuedAt`;
    /// `nil` when that would be past ``giveUpAfter`` (give up now).
    public func nextAttempt(afterAttempts attempts: Int, queuedAt: Date, now: Date) -> Date? {
        let delay = delays[min(max(attempts - 1, 0), delays.count - 1)]
        let next = now.addingTimeInterval(delay.timeInterval)
        return next.timeIntervalSince(queuedAt) > giveUpAfter.timeInterval ? nil : next
    }

    /// `1m,5m,1h` (units ms, s, m, h): the delays as `--mail-retry-delays` takes them.
    public static func parseDelays(_ text: String) -> [Duration]? {
        let delays = text.split(separator: ",").map { parseDuration(String($0).trimmingCharacters(in: .whitespaces)) }
        guard !delays.isEmpty, delays.allSatisfy({ $0 != nil }) else { return nil }
        return delays.map { $0! }
    }

    /// `500ms`, `30s`, `5m`, `24h`; a positive amount, at most 7 days.
    public static func parseDuration(_ text: String) -> Duration? {
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        for (suffix, scale) in units where text.hasSuffix(suffix) {
            guard let value = Double(text.dropLast(suffix.count)), value.isFinite, value > 0, value * scale <= 7 * 86400 else { return nil }
            return .milliseconds(Int64((value * scale * 1000).rounded()))
        }
        return nil
    }
}

extension Duration {
    /// The duration in seconds, as a `TimeInterval`.
    var timeInterval: TimeInterval {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
