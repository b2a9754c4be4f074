#if canImport(Glibc)
import Glibc
#endif
import Foundation
import PhotoPipeline
import Testing
@testable import PhotoCache

/// Several `petspot` processes on one cache, and processes killed with SIGKILL mid-write.
@Suite(.enabled(if: PetSpotBinary.isAvailable, "needs the petspot executable built next to the tests"))
struct MultiProcessTests {
    @Test func fourProcessesAddingFiftyPhotosEachEndWithAll200Entries() throws {
        let temp = try TemporaryDirectory("four")
        defer { temp.remove() }
        let inputs = try Fixtures.write(Fixtures.distinctPhotos(200), into: temp.path)
        let cacheDir = temp.path("cache")

        let children = try (0..<4).map { worker in
            try PetSpotBinary.start(["photo", "add", "--cache-dir", cacheDir] + Array(inputs[(worker * 50)..<((worker + 1) * 50)]),
                                    scratch: temp.path, label: "worker-\(worker)")
        }
        for (worker, child) in children.enumerated() {
            #expect(child.exitCode == 0, "worker \(worker): \(child.stderr)")
            #expect(child.stderr.isEmpty, "worker \(worker)")
            #expect(child.stdout.components(separatedBy: "cache:    miss").count - 1 == 50, "worker \(worker)")
        }

        let cache = try DiskPhotoCache(location: CacheLocation(root: URL(fileURLWithPath: cacheDir), source: .flag))
        #expect(try cache.stats().entryCount == 200)
        let report = try cache.verify()
        #expect(report.isClean, "\(report)")
        #expect(report.checkedEntries == 200)
        let files = try FileManager.default.subpathsOfDirectory(atPath: cacheDir + "/photos").filter { $0.hasSuffix(".jpg") }
        #expect(files.count == 200)
    }

    @Test func fourProcessesAddingTheSamePhotosAgreeOnOneEntryEach() throws {
        let temp = try TemporaryDirectory("same")
        defer { temp.remove() }
        let inputs = try Fixtures.write(Fixtures.distinctPhotos(12), into: temp.path)
        let cacheDir = temp.path("cache")
        let children = try (0..<4).map { worker in
            try PetSpotBinary.start(["photo", "add", "--cache-dir", cacheDir] + inputs, scratch: temp.path, label: "worker-\(worker)")
        }
        for child in children {
            #expect(child.exitCode == 0, "\(child.stderr)")
            #expect(child.stderr.isEmpty)
        }
        let cache = try DiskPhotoCache(location: CacheLocation(root: URL(fileURLWithPath: cacheDir), source: .flag))
        #expect(try cache.stats().entryCount == 12)
        #expect(try cache.verify().isClean)
    }

    @Test func processesKilledWithSIGKILLNeverLeaveABrokenEntry() throws {
        let temp = try TemporaryDirectory("sigkill")
        defer { temp.remove() }
        let inputs = try Fixtures.write(Fixtures.distinctPhotos(60), into: temp.path)
        let cacheDir = temp.path("cache")
        var random = SplitMix64(seed: 0x5EED_CAFE)
        var killed = 0

        for iteration in 0..<15 {
            // Five passes over the photos (misses, then hits through the lock and index), so each
            // child still has work when the kill comes however fast the machine is.
            let batch = (0..<(inputs.count * 5)).map { inputs[(iteration * 7 + $0) % inputs.count] }
            let child = try PetSpotBinary.start(["photo", "add", "--cache-dir", cacheDir, "--max-cache-size", "40KB", "--quality", "\(60 + iteration)"] + batch,
                                                scratch: temp.path, label: "kill-\(iteration)")
            // 60–360 ms: past start-up and the first adds (a fresh process takes ~150 ms to store its
            // first photo on a loaded machine), well before the five passes end.
            usleep(UInt32(random.next() % 300 + 60) * 1_000)
            child.kill()
            if child.wasKilled { killed += 1 } else { #expect(child.exitCode == 0, "\(child.stderr)") }

            let cache = try DiskPhotoCache(location: CacheLocation(root: URL(fileURLWithPath: cacheDir), source: .flag))
            let report = try cache.verify()
            #expect(report.isConsistent, "iteration \(iteration): \(report.issues)")
        }
        #expect(killed >= 10, "most children should have been killed mid-run")

        let cache = try DiskPhotoCache(location: CacheLocation(root: URL(fileURLWithPath: cacheDir), source: .flag))
        let swept = try cache.prune()
        let final = try cache.verify()
        #expect(final.isClean, "\(final)")
        #expect(final.checkedEntries > 0)
        #expect((try FileManager.default.contentsOfDirectory(atPath: cacheDir + "/tmp")).isEmpty)
        let files = try FileManager.default.subpathsOfDirectory(atPath: cacheDir + "/photos").filter { $0.hasSuffix(".jpg") }
        #expect(files.count == final.checkedEntries, "leftovers swept: \(swept.leftovers.count)")
    }
}

/// A small seeded generator, so the kill delays are the same on every run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
