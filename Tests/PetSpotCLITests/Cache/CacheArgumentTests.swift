import ArgumentParser
import Foundation
import PhotoPipeline
import Testing
@testable import PetSpotCLI
@testable import PhotoCLI
@testable import PhotoCache

/// The cache commands' arguments, parsed in-process.
@Suite struct CacheArgumentTests {
    @Test(arguments: [("30d", 30.0 * 86_400), ("12h", 43_200), ("45m", 2_700), ("2w", 1_209_600), ("90s", 90),
                      ("1.5d", 129_600), ("30 days", 2_592_000), (" 1 hour ", 3_600)])
    func agesAcceptUnits(_ text: String, _ seconds: Double) {
        #expect(AgeParser.parse(text) == seconds)
    }

    @Test(arguments: ["30", "d", "-1d", "12 parsecs", ""])
    func agesWithoutAUnitAreRefused(_ text: String) {
        #expect(AgeParser.parse(text) == nil)
    }

    @Test(arguments: [(30.0 * 86_400, "30 days"), (43_200, "12 hours"), (3_600, "1 hour"), (129_600, "1.5 days"), (90, "1.5 minutes"), (5, "5 seconds")])
    func agesPrintForPeople(_ seconds: Double, _ text: String) {
        #expect(AgeParser.string(seconds) == text)
    }

    @Test(arguments: [("500MB", 500_000_000), ("1.2 GiB", 1_288_490_189), ("512MiB", 536_870_912), ("300KB", 300_000)])
    func sizesAcceptHumanUnits(_ text: String, _ bytes: Int) {
        #expect(ByteSizeParser.parse(text) == bytes)
    }

    @Test func pruneParsesSizeAndAge() throws {
        let command = try #require(try PetSpotCommand.parseAsRoot(["cache", "prune", "--max-size", "500MB", "--older-than", "12h", "--dry-run"]) as? CachePruneCommand)
        #expect(command.maxSize == 500_000_000)
        #expect(command.olderThan == 43_200)
        #expect(command.dryRun)
    }

    @Test func limitsComeFromFlagsThenEnvironmentThenDefaults() throws {
        let flags = try #require(try PetSpotCommand.parseAsRoot(["cache", "stats", "--max-cache-size", "1GiB", "--max-cache-age", "1w"]) as? CacheStatsCommand)
        let environment = ["PETSPOT_CACHE_MAX_SIZE": "10MB", "PETSPOT_CACHE_MAX_AGE": "2d"]
        #expect(try flags.cache.limits(environment: environment) == CacheLimits(maxBytes: 1 << 30, maxAge: 604_800))
        let plain = try #require(try PetSpotCommand.parseAsRoot(["cache", "stats"]) as? CacheStatsCommand)
        #expect(try plain.cache.limits(environment: environment) == CacheLimits(maxBytes: 10_000_000, maxAge: 172_800))
        #expect(try plain.cache.limits(environment: [:]) == .default)
    }

    @Test func commandsRunInProcess() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("petspot-inprocess-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        for arguments in [["photo", "add", PhotoFixtures.testImage("png-rgba-alpha.png"), "--flow", "missing"],
                          ["cache", "prune", "--dry-run"], ["cache", "verify"], ["cache", "clear"]] {
            var command = try #require(try PetSpotCommand.parseAsRoot(arguments + ["--cache-dir", folder.path]) as? AsyncParsableCommand)
            try await command.run()
        }
        let cache = try DiskPhotoCache(location: CacheLocation(root: folder, source: .flag))
        #expect(try cache.currentAttachment(for: .missing) != nil)
        #expect(try cache.stats().entryCount == 1)
    }

    @Test(arguments: [("IMG_0001.jpg", [CacheFlow]()), ("a \"quoted\" \\ name/with\nnew\tline\u{01}é🐶.jpg", [.found, .missing])])
    func listJSONRowsMatchTheStandardJSONOutput(_ sourceName: String, _ pins: [CacheFlow]) {
        let key = String(repeating: "ab", count: 32)
        for captured in [nil, CaptureDate(year: 2024, month: 6, day: 15, hour: 14, minute: 30, second: 0, utcOffset: "+02:00")] {
            let entry = CacheEntry(key: key, path: "photos/ab/\(key).jpg", mimeType: "image/jpeg", bytes: 1234, width: 640, height: 480,
                                   sourceFileName: captured == nil ? nil : sourceName, sourceDigest: captured == nil ? nil : key,
                                   fileDigest: key, capturedAt: captured, created: Date(timeIntervalSince1970: 1_750_000_000),
                                   lastAccess: Date(timeIntervalSince1970: 1_750_000_100), pins: pins)
            let record = EntryRecord(entry, root: "/cache")
            #expect("[\n" + record.jsonArrayElement + "\n]" == JSONOutput.string([record]).replacingOccurrences(of: "[\n\n    ]", with: "[]"))
        }
    }

    @Test(arguments: [
        (CacheError.cannotCreateDirectory(path: "/x", reason: "denied"), PhotoCLI.ExitStatus.cannotCreate),
        (.cannotWrite(path: "/x", reason: "read-only"), .cannotCreate),
        (.diskFull(path: "/x"), .ioError),
        (.indexCorrupt(path: "/x", detail: "not a database"), .ioError),
        (.photo(.notAnImage), .dataError),
        (.photo(.unreadableFile(path: "/x", reason: "gone")), .noInput),
    ])
    func cacheErrorsMapToSysexits(_ error: CacheError, _ status: PhotoCLI.ExitStatus) {
        #expect(PhotoCLI.ExitStatus.of(error) == status)
    }
}
