import ArgumentParser
import PetSpotServer

/// `N` (per minute), `N/min` or `N/hour`: how many requests, and over how long they refill.
struct RateOption: ExpressibleByArgument, Sendable {
    var count: Double
    /// Minutes over which `count` refill.
    var minutes: Double

    /// The default of a rate given per minute.
    init(_ rate: RateLimits.Rate) {
        count = rate.perMinute
        minutes = 1
    }

    /// `count` per `minutes`.
    init(count: Double, minutes: Double) {
        self.count = count
        self.minutes = minutes
    }

    init?(argument: String) {
        let parts = argument.split(separator: "/", maxSplits: 1)
        guard let count = Double(parts[0]), count > 0, count.isFinite else { return nil }
        self.count = count
        switch parts.count == 2 ? String(parts[1]) : "min" {
        case "min", "minute": minutes = 1
        case "h", "hour": minutes = 60
        default: return nil
        }
    }

    var defaultValueDescription: String { "\(count.formatted())/\(minutes == 1 ? "min" : "hour")" }

    /// The bucket: refills at the rate, holds `burstFraction` of N (at least one request).
    func rate(burstFraction: Double) -> RateLimits.Rate {
        .init(perMinute: count / minutes, burst: max(1, Int(count * burstFraction)))
    }
}
