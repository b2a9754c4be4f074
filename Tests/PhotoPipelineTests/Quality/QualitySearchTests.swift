import Foundation
@testable import PhotoPipeline
import Testing

/// The search for the lowest quality within a distance, on distance curves of known shape: it
/// lands where the curve crosses the target, measures each quality at most once and no more
/// often than allowed, measures the first pair together, and says when the range's top is not
/// enough.
@Suite struct QualitySearchTests {
    /// A curve like a photo's: log(distance) falling by `slope` a quality step, `base` at 85.
    static func curve(base: Double, slope: Double) -> @Sendable (Int) -> Double {
        { base * exp(slope * Double($0 - 85)) }
    }

    /// The lowest quality whose distance is within `target` on `distance`, by looking at all.
    static func truth(_ target: Double, _ distance: (Int) -> Double, in range: ClosedRange<Int>) -> Int? {
        range.first { distance($0) <= target }
    }

    /// Runs `search` on `distance`, recording every batch it asked for.
    static func run(_ search: QualitySearch, _ distance: (Int) -> Double) -> (QualitySearch.Outcome, [[Int]]) {
        var batches: [[Int]] = []
        let outcome = search.run { qualities in
            batches.append(qualities)
            return qualities.map(distance)
        }
        return (outcome, batches)
    }

    /// Started near the crossing, as ``AutoQuality`` starts it, the pair brackets the target or
    /// lies close to it, and the line through it lands within a quality of the crossing.
    @Test(arguments: [(1.1, 0.027), (1.1, 0.047), (0.7, 0.035), (1.6, 0.03), (1.0, 0.03)])
    func aPairNearTheCrossingLandsWithinAQualityOfIt(base: Double, slope: Double) throws {
        let distance = Self.curve(base: base, slope: -slope)
        for target in [0.8, 1.0, 1.1, 1.5] {
            guard let expected = Self.truth(target, distance, in: 40...95), expected < 95 else { continue }
            for offset in [-3, 0, 2] {
                let search = QualitySearch(target: target, range: 40...95, start: expected + offset, maximumMeasurements: 2)
                let (outcome, batches) = Self.run(search, distance)
                #expect(batches.first?.count == 2 && batches.joined().count == 2, "\(batches)")
                #expect(abs(outcome.quality - expected) <= 1, "target \(target) from \(expected + offset): chose \(outcome.quality), crossing at \(expected)")
                let estimate = try #require(outcome.distance)
                #expect(abs(estimate - distance(outcome.quality)) / distance(outcome.quality) < 0.05, "estimate \(estimate)")
            }
        }
    }

    /// Started far off, a third measurement goes towards the crossing, and the answer is read
    /// between a miss and a meet.
    @Test func aPairFarFromTheCrossingTakesAThirdMeasurement() throws {
        let distance = Self.curve(base: 1.0, slope: -0.035)
        let search = QualitySearch(target: 0.8, range: 40...95, start: 75, maximumMeasurements: 3, extrapolation: 4)
        let (outcome, batches) = Self.run(search, distance)
        #expect(batches.count == 2 && batches[1].count == 1, "\(batches)")
        let expected = try #require(Self.truth(0.8, distance, in: 40...95))
        #expect(abs(outcome.quality - expected) <= 1, "\(outcome), crossing at \(expected)")
    }

    @Test func moreMeasurementsFindTheExactCrossingOfABentCurve() throws {
        // Falls faster near the top, as photos do between 90 and 95.
        let distance: (Int) -> Double = { q in q < 90 ? 0.74 * exp(-0.06 * Double(q - 90)) : 0.74 * exp(-0.17 * Double(q - 90)) }
        let search = QualitySearch(target: 0.8, range: 40...95, start: 94, maximumMeasurements: 8)
        let (outcome, batches) = Self.run(search, distance)
        let asked = Array(batches.joined())
        let expected = try #require(Self.truth(0.8, distance, in: 40...95))
        #expect(abs(outcome.quality - expected) <= 1, "asked \(asked)")
        #expect(Set(asked).count == asked.count, "measured a quality twice: \(asked)")
        for index in asked.indices.dropFirst(2) {
            #expect(asked[..<index].contains { abs($0 - asked[index]) <= QualitySearch.longestStep }, "\(asked)")
        }
    }

    @Test func aTopThatMissesIsTakenAndSaysSo() {
        let search = QualitySearch(target: 0.1, range: 40...95, start: 90, maximumMeasurements: 4)
        let (outcome, batches) = Self.run(search, { _ in 0.5 })
        #expect(outcome.quality == 95)
        #expect(outcome.distance == nil)
        #expect(batches.joined().contains(95))
    }

    @Test func aBottomThatMeetsIsTaken() {
        let search = QualitySearch(target: 3, range: 40...95, start: 45, maximumMeasurements: 4)
        let (outcome, _) = Self.run(search, { _ in 0.5 })
        #expect(outcome.quality == 40)
        #expect(outcome.distance == 0.5)
    }

    @Test func aRangeOfOneQualityIsMeasuredOnce() {
        let search = QualitySearch(target: 1, range: 90...90, start: 90, maximumMeasurements: 3)
        let (outcome, batches) = Self.run(search, { _ in 0.5 })
        #expect(batches == [[90]])
        #expect(outcome.quality == 90)
    }

    /// The search starts higher for a smaller picture, a quality for each halving of its pixels,
    /// never outside the qualities searched; at 2048 × 1536 and above where the size is unknown.
    @Test func theStartRisesAsThePictureShrinks() {
        let auto = AutoQuality()
        let large = auto.start(for: .jpeg)
        #expect(auto.start(for: .jpeg, pixels: 2048 * 1536) == large)
        #expect(auto.start(for: .jpeg, pixels: 4000 * 3000) == large)
        #expect(auto.start(for: .jpeg, pixels: 1024 * 768) == large + 2)
        #expect(auto.start(for: .jpeg, pixels: 512 * 384) == large + 4)
        #expect(auto.start(for: .webp, pixels: 1024 * 768) == auto.start(for: .webp) + 2)
        #expect(auto.start(for: .jpeg, pixels: 1) == auto.searched(for: .jpeg).upperBound)
        #expect(AutoQuality(targetDistance: 0.3).start(for: .jpeg, pixels: 1) == 95)
    }
}
