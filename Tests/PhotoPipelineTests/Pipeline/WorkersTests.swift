import Dispatch
import Foundation
@testable import PhotoPipeline
import Synchronization
import Testing

/// The threads of a decode: started by the pipeline's ``Workers`` only, as many as the plan says,
/// and all ended when the decode returns.
struct WorkersTests {
    /// Jobs run at once, not one after another: each waits for the other's signal, which would
    /// never come if they took turns.
    @Test func jobsSideBySideRunAtOnce() {
        let workers = Workers()
        let first = DispatchSemaphore(value: 0), second = DispatchSemaphore(value: 0)
        let met = Atomic(0)
        workers.sideBySide({
            first.signal()
            if second.wait(timeout: .now() + 10) == .success { met.add(1, ordering: .relaxed) }
        }, beside: [{
            second.signal()
            if first.wait(timeout: .now() + 10) == .success { met.add(1, ordering: .relaxed) }
        }])
        let meetings = met.load(ordering: .relaxed)
        #expect(meetings == 2)
        let counts = workers.counts
        #expect(counts.started == 1 && counts.peak == 1 && counts.running == 0)
    }

    /// `sideBySide` returns only when every job has ended, however late.
    @Test func sideBySideWaitsForTheSlowestJob() {
        let workers = Workers()
        let ended = Atomic(0)
        workers.sideBySide({}, beside: [{
            usleep(100_000)
            ended.add(1, ordering: .relaxed)
        }, {
            usleep(50_000)
            ended.add(1, ordering: .relaxed)
        }])
        let count = ended.load(ordering: .relaxed)
        #expect(count == 2)
    }

    @Test func forEachRunsEveryIndexOnceAndOneOnTheCallingThread() {
        let workers = Workers()
        let seen = Mutex([Int](repeating: 0, count: 5))
        workers.forEach(5) { index in seen.withLock { $0[index] += 1 } }
        #expect(seen.withLock { $0 } == [1, 1, 1, 1, 1])
        #expect(workers.counts.started == 4)
        workers.forEach(1) { index in seen.withLock { $0[index] += 1 } }
        #expect(workers.counts.started == 4, "a single index runs on the calling thread")
        workers.forEach(0) { index in seen.withLock { $0[index] += 1 } }
        #expect(seen.withLock { $0 } == [2, 1, 1, 1, 1])
    }

    /// A started job (the encoder alongside) is waited for by `waitForAll`.
    @Test func waitForAllWaitsForAStartedJob() {
        let workers = Workers()
        let done = Atomic(false)
        workers.start {
            usleep(50_000)
            done.store(true, ordering: .relaxed)
        }
        workers.waitForAll()
        let finished = done.load(ordering: .relaxed)
        #expect(finished)
        #expect(workers.counts.running == 0)
    }

    /// A stage that starts a job of its own when it is opened and does not wait for it: the
    /// pipeline's decode still returns only after that job has ended.
    final class SlowSink: PlaneRowSink, @unchecked Sendable {
        let ended = Atomic(false)
        func open(planes: [UnsafeMutablePointer<UInt8>], sizes: [PixelSize], writers: PlaneWriters,
                  on workers: Workers) throws(PhotoError) {
            workers.start { [self] in
                usleep(200_000)
                ended.store(true, ordering: .relaxed)
            }
        }
        func finished(plane: Int, writer: Int, rows: Int) {}
        func close() throws(PhotoError) -> EncodedImage? { nil }
        func abandon() {}
    }

    @Test func theDecodeReturnsOnlyWhenEveryJobHasEnded() throws {
        let bytes = try Fixtures.bytes("sample-photo.jpg")
        let info = try PhotoPipeline.inspect(bytes)
        let sink = SlowSink()
        var plan = PreparePlan(info, options: PrepareOptions(maxDimension: 300, threads: 2), jpegHeader: bytes)
        plan.planar?.alongside = { sink }
        let workers = plan.resize.workers
        _ = try PhotoPipeline.decode(.bytes(bytes), info: info, plan: plan)
        let ended = sink.ended.load(ordering: .relaxed)
        #expect(ended)
        #expect(workers.counts.running == 0)
    }

    /// Decodes `name` as `prepare` would (1024 px JPEG on two threads) with workers the test can
    /// count: the plan, threads started, and the most at once beside the calling thread.
    static func decode(_ name: String) throws -> (plan: DecodePlan, started: Int, peak: Int, running: Int) {
        let bytes = try Corpus.bytes(name)
        let info = try PhotoPipeline.inspect(bytes)
        let plan = PreparePlan(info, options: PrepareOptions(maxDimension: 1024, threads: 2),
                               jpegHeader: Array(bytes.prefix(JPEGFileHeader.firstRead)))
        _ = try PhotoPipeline.decode(.bytes(bytes), info: info, plan: plan)
        let counts = plan.resize.workers.counts
        return (plan.decode, counts.started, counts.peak, counts.running)
    }

    /// The threads each plan starts on two cores, and the most at once, as docs/architecture.md
    /// lists them.
    @Test(.enabled(if: Corpus.isAvailable, "set PETSPOT_CORPUS to the shared corpus"),
          arguments: [
              // Row bands: the bottom band opens, then decodes, beside the calling thread; each
              // band's thread encodes its own part; then the bottom part is written beside the top.
              ("photos/olympus-ep3_4032x3024.jpg", DecodePlan.jpeg(.rowBands), 3, 1),
              // Luma and chroma: the chroma's scans beside the luma's; then the chroma's rows, the
              // luma's resize and the encoder alongside; then the file's second part is written.
              ("photos/sony-rx100m4_5640x3172_q100.jpg", .jpeg(.lumaChroma), 5, 3),
              // One stream: two column-band resizers and the encoder alongside; then the second part.
              ("photos/nokia83_4608x1976.jpg", .jpeg(.stream), 4, 3),
              // A grid HEIC: its tiles in two jobs, then the planes resized in two bands.
              ("heif/pillowheif-arrow-iphone8plus.heic", .heif, 2, 1),
              // A PNG: decoded whole, resized in two row bands.
              ("photos/canon400d-storm_1920x1280_alpha.png", .whole, 1, 1),
          ])
    func eachPlanStartsItsThreadsAndNoneOutlivesTheDecode(name: String, plan: DecodePlan, started: Int, peak: Int) throws {
        let decoded = try Self.decode(name)
        #expect(decoded.plan == plan)
        #expect(decoded.started == started, "threads started")
        // At most: a job may end before the next is started when the machine is busy.
        #expect((1...peak).contains(decoded.peak), "threads at once beside the calling one")
        #expect(decoded.running == 0, "a thread outlived the decode")
    }

    /// Threads are started in one place: no other file of the library or of its C targets makes a
    /// thread or hands work to libdispatch or Swift concurrency.
    @Test func onlyWorkersStartsThreads() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../Sources")
            .standardizedFileURL
        func files(_ target: String, _ suffixes: [String]) throws -> [String] {
            try #require(FileManager.default.enumerator(atPath: root.appendingPathComponent(target).path))
                .compactMap { $0 as? String }.filter { file in suffixes.contains { file.hasSuffix($0) } }
                .map { "\(target)/\($0)" }
        }
        let swift = try files("PhotoPipeline", [".swift"])
        let c = try ["CCodecs", "CHEIF", "CJPEGStream", "CResample"].flatMap { try files($0, [".c", ".h"]) }
        #expect(swift.count > 50 && c.count > 10)
        let starters = ["pthread_create", "DispatchQueue", "DispatchWorkItem", "concurrentPerform", "notify(queue",
                        "Thread(", "Thread {", "Thread.detach", "Task {", "Task.detached", "TaskGroup", "async let"]
        for file in swift + c where file != "PhotoPipeline/Pipeline/Workers.swift" {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for starter in starters {
                #expect(!text.contains(starter), "\(file) uses \(starter)")
            }
        }
    }
}
