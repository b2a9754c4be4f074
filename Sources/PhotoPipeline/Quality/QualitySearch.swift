#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds the lowest encoder quality whose picture stays within a distance target, in a few
/// measurements: the distance falls as the quality rises, about exponentially over the qualities
/// that matter, so the quality is read off the line through two measurements on log(distance).
///
/// The first two are a pair a few qualities either side of the start, measured together (side by
/// side on two threads: neither waits for the other's answer). Once one quality misses the target
/// and another meets it, the answer is where the line through those two crosses it, unmeasured.
/// Until then each further measurement is where the line through the last two crosses the target,
/// at most ``longestStep`` from the quality measured nearest it; when that crossing lies within ``extrapolation`` of a quality
/// measured, or the measurements run out, it is the answer.
struct QualitySearch {
    /// A distance at or below this meets the target.
    let target: Double
    /// The qualities searched; the lowest is taken when even it meets the target, the highest
    /// when it misses.
    let range: ClosedRange<Int>
    /// Where the crossing is expected: the first pair sits either side of it.
    let start: Int
    /// At most this many measurements (at least the pair).
    let maximumMeasurements: Int
    /// How far past the qualities measured the line is trusted: a crossing within this many
    /// qualities of the nearest measurement is the answer without measuring it.
    var extrapolation = 0
    /// log(distance) per quality step when two measurements give no falling line: the corpus
    /// photos' typical slope between quality 70 and 90 (from -0.027 to -0.047).
    static let typicalSlope = -0.03
    /// The first pair's qualities differ by this much: wide enough that the distance differs by
    /// more than the noise of a sample (a few per cent), narrow enough that the line is the curve.
    static let pairSpread = 6
    /// A measurement is at most this many qualities from the nearest before it: the distance falls faster
    /// near the top (for one corpus photo from 0.74 at 90 to 0.32 at 95), so a line drawn
    /// through measurements far apart misses where the target is crossed.
    static let longestStep = 6

    /// One measured quality.
    struct Measurement: Sendable, Equatable {
        let quality: Int
        let distance: Double
    }

    /// What the search settled on, and everything it measured on the way.
    struct Outcome: Sendable, Equatable {
        /// The lowest quality found to meet the target: measured, or where the line through the
        /// last measurements meets it when the measurements ran out first; the range's top when
        /// the top was measured to miss.
        let quality: Int
        /// That quality's distance, measured or read off the line; `nil` when the top missed.
        let distance: Double?
        let measurements: [Measurement]
    }

    /// The first pair: `start` ± half of ``pairSpread``, moved inside the range (one quality when
    /// the range has only one).
    var firstPair: [Int] {
        let low = max(range.lowerBound, min(range.upperBound - Self.pairSpread, start - Self.pairSpread / 2))
        let high = min(range.upperBound, low + Self.pairSpread)
        return low == high ? [low] : [low, high]
    }

    /// Runs the search.
    /// - Parameter measure: the distances of the picture encoded at some qualities (the first
    ///   pair together, then one at a time); at most ``maximumMeasurements`` in all, never twice
    ///   for one quality.
    func run<E: Error>(_ measure: ([Int]) throws(E) -> [Double]) throws(E) -> Outcome {
        precondition(maximumMeasurements >= 2, "a search measures a pair at least")
        var measured: [Measurement] = []
        /// The highest quality known to miss the target, and the lowest known to meet it.
        var miss: Measurement?
        var meet: Measurement?
        var next = firstPair
        while true {
            let distances = try measure(next)
            for (quality, distance) in zip(next, distances) {
                let point = Measurement(quality: quality, distance: distance)
                measured.append(point)
                if distance <= target {
                    if meet.map({ quality < $0.quality }) ?? true { meet = point }
                } else if miss.map({ quality > $0.quality }) ?? true {
                    miss = point
                }
            }
            // Done when the lowest meeting quality sits right above a missing one or at the
            // range's bottom, or when the top misses.
            let low = (miss?.quality ?? range.lowerBound - 1) + 1
            let high = (meet?.quality ?? range.upperBound + 1) - 1
            if let meet, meet.quality == low || low > high {
                return Outcome(quality: meet.quality, distance: meet.distance, measurements: measured)
            }
            if meet == nil, miss?.quality == range.upperBound {
                return Outcome(quality: range.upperBound, distance: nil, measurements: measured)
            }
            // Between a miss and a meet the line is close to the curve: its crossing is the
            // answer, unmeasured, as it is when the measurements run out.
            let bracket = miss.flatMap { miss in meet.map { [miss, $0] } }
            let line = self.line(through: bracket ?? measured, steepest: bracket == nil)
            let nearest = measured.map { abs(Double($0.quality) - line.crossing) }.min() ?? .infinity
            if bracket != nil || nearest <= Double(extrapolation) || measured.count >= maximumMeasurements {
                let quality = Self.clamp(line.crossing, to: low...high)
                return Outcome(quality: quality, distance: line.distance(quality), measurements: measured)
            }
            let closest = measured.min { abs(Double($0.quality) - line.crossing) < abs(Double($1.quality) - line.crossing) }!.quality
            let reach = Double(closest - Self.longestStep)...Double(closest + Self.longestStep)
            next = [Self.clamp(min(reach.upperBound, max(reach.lowerBound, line.crossing)), to: low...high)]
        }
    }

    /// The line log(distance) = a + slope × quality through the last two measurements (on the
    /// typical slope when they give no falling line).
    /// - Parameter steepest: when the line is followed past the measurements rather than between
    ///   a miss and a meet, it falls at least at the typical slope: a sample's noise can flatten
    ///   the secant of two close qualities, and the curve steepens towards the top (one corpus
    ///   photo at 640 px: a secant of -0.012 from 78 to 84 pointed at 94; the whole picture met
    ///   the target at 88).
    private func line(through measured: [Measurement], steepest: Bool = false) -> (crossing: Double, distance: (Int) -> Double) {
        let last = measured[measured.count - 1]
        var slope = Self.typicalSlope
        if measured.count >= 2 {
            let before = measured[measured.count - 2]
            let secant = (log(last.distance) - log(before.distance)) / Double(last.quality - before.quality)
            if secant < -0.001 { slope = steepest ? min(secant, Self.typicalSlope) : secant }
        }
        return (Double(last.quality) + (log(target) - log(last.distance)) / slope,
                { exp(log(last.distance) + slope * Double($0 - last.quality)) })
    }

    /// The first quality in `bounds` at or above `value` (the line's crossing; the quality below
    /// it would be expected to miss).
    private static func clamp(_ value: Double, to bounds: ClosedRange<Int>) -> Int {
        guard value.isFinite else { return value > 0 ? bounds.upperBound : bounds.lowerBound }
        return min(bounds.upperBound, max(bounds.lowerBound, Int((value - 0.05).rounded(.up))))
    }
}
