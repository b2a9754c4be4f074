import Foundation
import Testing

/// Files whose header declares far more than they hold: `prepare` refuses them without allocating
/// for the declared size, and `inspect` says up front when `prepare` will refuse a file.
@Suite struct HostileInputTests {
    /// The measurements before the fix: 318 MB (PNG) and 333 MB (progressive JPEG).
    static let peakLimit = 64 << 20

    @Test(arguments: ["bomb-png-10000x9999.png", "bomb-jpeg-progressive-10000x9999.jpg", "bomb-jpeg-baseline-10000x9999.jpg"])
    func prepareRefusesAHugeHeaderWithoutAllocatingForIt(name: String) async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let output = folder.appendingPathComponent("out.jpg")
            let run = try await PeakMemory.run(try CLIRunner.petspotURL(),
                                         ["photo", "prepare", PhotoFixtures.testImage(name), "-o", output.path])
            #expect(run.exitCode == 65, "a damaged input is EX_DATAERR")
            #expect(run.maxResidentBytes <= Self.peakLimit, "peak \(run.maxResidentBytes >> 20) MiB")
            #expect(!FileManager.default.fileExists(atPath: output.path))
            let result = try await CLIRunner.petspot(["photo", "prepare", PhotoFixtures.testImage(name), "-o", output.path])
            #expect(result.stderr.contains("declares 10000×9999 pixels"), "\(result)")
        }
    }

    /// A progressive JPEG of hundreds of end-of-band scans: refused from its scan headers, in less
    /// than 50 ms of CPU beyond what preparing a 96 × 64 photo costs the process (libjpeg would
    /// spend seconds on the large one).
    @Test(arguments: ["bomb-jpeg-scans-8192x6100.jpg", "bomb-jpeg-scans-1200x2048.jpg"])
    func prepareRefusesAScanBombAtOnce(name: String) async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let output = folder.appendingPathComponent("out.jpg")
            // The least CPU of three runs each: a process's start-up CPU varies with what else the
            // machine runs, and the least is the closest to what the work itself costs.
            var floorMicroseconds = Int.max, runMicroseconds = Int.max
            for _ in 0..<3 {
                let floor = try await PeakMemory.run(try CLIRunner.petspotURL(), ["photo", "prepare", PhotoFixtures.testImage("exif-orientation-1.jpg"),
                                                                                  "-o", folder.appendingPathComponent("small.jpg").path, "--force"])
                let run = try await PeakMemory.run(try CLIRunner.petspotURL(), ["photo", "prepare", PhotoFixtures.testImage(name), "-o", output.path])
                #expect(floor.exitCode == 0)
                #expect(run.exitCode == 65, "a hostile input is EX_DATAERR")
                floorMicroseconds = min(floorMicroseconds, floor.cpuMicroseconds)
                runMicroseconds = min(runMicroseconds, run.cpuMicroseconds)
            }
            #expect(runMicroseconds < floorMicroseconds + 50_000, "\(runMicroseconds) µs of CPU, a small photo \(floorMicroseconds)")
            #expect(!FileManager.default.fileExists(atPath: output.path))
            let result = try await CLIRunner.petspot(["photo", "prepare", PhotoFixtures.testImage(name), "-o", output.path])
            #expect(result.stderr.contains("464 scans would make the decoder go over"), "\(result)")
            let json = try await CLIRunner.petspot(["photo", "prepare", "--json", PhotoFixtures.testImage(name), "-o", output.path])
            #expect(json.stdout.contains("too-costly-to-decode"), "\(json)")
        }
    }

    @Test func prepareRefusesAJPEGWhoseScanStopsEarly() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let output = folder.appendingPathComponent("out.jpg")
            let result = try await CLIRunner.petspot(["photo", "prepare", PhotoFixtures.testImage("bad-scan-ends-early.jpg"), "-o", output.path])
            #expect(result.exitCode == 65, "\(result)")
            #expect(result.stderr.contains("premature end of data segment"), "\(result)")
            #expect(!FileManager.default.fileExists(atPath: output.path))
        }
    }

    @Test(arguments: [
        ("bad-zero-height.jpg", "invalid-dimensions", "declares a size of 96×0 pixels"),
        ("bomb-png-1000000x1000000.png", "too-many-pixels", "1000000×1000000 pixels"),
    ])
    func inspectSaysPrepareWillRefuse(name: String, code: String, phrase: String) async throws {
        let text = try await CLIRunner.petspot(["photo", "inspect", PhotoFixtures.testImage(name)])
        #expect(text.exitCode == 0, "the header was read: \(text)")
        let line = try #require(text.stdout.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("prepare:") },
                                "\(text)")
        #expect(line.contains("refuses it (\(code))") && line.contains(phrase), "\(line)")

        let json = try await CLIRunner.petspot(["photo", "inspect", "--json", PhotoFixtures.testImage(name)])
        #expect(json.exitCode == 0, "\(json)")
        let record = try #require(try json.jsonArray().first)
        let refusal = try #require(record["prepare_refusal"] as? [String: Any], "\(json.stdout)")
        #expect(refusal["code"] as? String == code)
        #expect((refusal["message"] as? String)?.contains(phrase) == true, "\(refusal)")
    }

    @Test func inspectSaysNothingOfRefusalForAGoodPhoto() async throws {
        let json = try await CLIRunner.petspot(["photo", "inspect", "--json", PhotoFixtures.testImage("jpeg-baseline.jpg")])
        let record = try #require(try json.jsonArray().first)
        #expect(record["prepare_refusal"] == nil)
        #expect(record["width"] as? Int == 640)
    }
}
