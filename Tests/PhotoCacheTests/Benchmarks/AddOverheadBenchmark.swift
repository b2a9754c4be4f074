import Foundation
import PhotoPipeline
import Synchronization
import Testing
@testable import PhotoCache

/// The cache's own time on `add` (everything but the pipeline), on a hit and on a miss, with
/// 100 000 entries in the index. Run with `PETSPOT_BENCHMARK=1`; prints the medians.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["PETSPOT_BENCHMARK"] == "1", "set PETSPOT_BENCHMARK=1"))
struct AddOverheadBenchmark {
    /// The pipeline, timing itself.
    final class TimedPreparer: Sendable {
        private let spent = Mutex<Duration>(.zero)

        func prepare(_ bytes: [UInt8], _ options: PrepareOptions) throws(PhotoError) -> PreparedPhoto {
            let start = ContinuousClock.now
            defer { spent.withLock { $0 += ContinuousClock.now - start } }
            return try PhotoPipeline.prepare(bytes, options: options)
        }

        func take() -> Duration { spent.withLock { value in defer { value = .zero }; return value } }
    }

    @Test func cacheOverheadOnAddWithA100000EntryIndex() throws {
        let temp = try TemporaryDirectory("bench")
        defer { temp.remove() }
        let timed = TimedPreparer()
        let cache = try DiskPhotoCache(location: CacheLocation(root: temp.url, source: .flag), limits: .default,
                                       writer: SystemFileWriter(),
                                       preparer: { (bytes, options) throws(PhotoError) in try timed.prepare(bytes, options) },
                                       now: { Date() })
        let now = Date().timeIntervalSince1970
        try cache.index.write { db in
            for index in 0..<100_000 {
                let key = Digest.sha256(Array("synthetic \(index)".utf8))
                let date = Date(timeIntervalSince1970: now - Double(index % 86_400) * 20)
                try EntryRow.insert(CacheEntry(key: key, path: CacheLayout.relativePath(key: key, fileExtension: "jpg"),
                                               mimeType: "image/jpeg", bytes: 2_000 + index % 1_000, width: 640, height: 480,
                                               sourceFileName: "p\(index).jpg", sourceDigest: key, fileDigest: key,
                                               capturedAt: nil, created: date, lastAccess: date), db)
            }
        }
        let photos = try Fixtures.distinctPhotos(40)
        var misses: [Double] = []
        var hits: [Double] = []
        for photo in photos {
            let start = ContinuousClock.now
            _ = try cache.add(photo, sourceFileName: "x.jpg")
            misses.append(milliseconds(ContinuousClock.now - start - timed.take()))
            let hitStart = ContinuousClock.now
            let hit = try cache.add(photo, sourceFileName: "x.jpg")
            hits.append(milliseconds(ContinuousClock.now - hitStart - timed.take()))
            #expect(hit.wasHit)
        }
        print("cache overhead with 100k entries: miss median \(median(misses)) ms (p90 \(percentile(misses, 0.9))), "
              + "hit median \(median(hits)) ms (p90 \(percentile(hits, 0.9)))")
        #expect(median(misses) < 5)
        #expect(median(hits) < 5)
    }

    private func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1_000 + Double(duration.components.attoseconds) / 1e15
    }

    private func median(_ values: [Double]) -> Double { percentile(values, 0.5) }

    private func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        return (sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] * 100).rounded() / 100
    }
}
