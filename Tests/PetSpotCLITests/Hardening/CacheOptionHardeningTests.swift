#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing

/// The cache commands: folder choices are reported rather than replaced silently, one name per
/// prune option, and looking at the cache creates nothing and needs no write access.
@Suite struct CacheOptionHardeningTests {
    private let samplePhoto = PhotoFixtures.testImage("sample-photo.jpg")

    @Test(arguments: [["cache", "path"], ["cache", "stats"], ["photo", "add", PhotoFixtures.testImage("sample-photo.jpg")]])
    func anEmptyCacheDirIsAUsageError(_ command: [String]) async throws {
        let result = try await CLIRunner.petspot(command + ["--cache-dir", ""])
        #expect(result.exitCode == 64, "\(result)")
        #expect(result.stderr.contains("--cache-dir '' names no folder"), "\(result.stderr)")
    }

    @Test func aRelativeXDGCacheHomeIsReportedNotSilentlyReplaced() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let result = try await CLIRunner.petspot(["cache", "path", "--json"], environment: [
                "PETSPOT_CACHE_DIR": "", "XDG_CACHE_HOME": "relative/cache", "HOME": folder.path])

            #expect(result.exitCode == 0, "\(result)")
            #expect(result.stderr.contains("XDG_CACHE_HOME=relative/cache is ignored"), "\(result.stderr)")
            let record = try CacheCLISupport.jsonObject(result.stdout)
            #expect(record["path"] as? String == folder.appendingPathComponent(".cache/petspot").path)
            #expect(record["chosen_by"] as? String == "~/.cache")
        }
    }

    @Test func cachePathHasJSONAndShortVerbose() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let result = try await CLIRunner.petspot(["cache", "path", "-v", "--cache-dir", folder.path])
            #expect(result.exitCode == 0, "\(result)")
            #expect(result.stdout.trimmingCharacters(in: .newlines) == folder.path)
            #expect(result.stderr.contains("chosen by --cache-dir"))
        }
    }

    @Test func pruneTakesTheCacheLimitNamesAndStillTheFormerOnes() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let added = try await CLIRunner.petspot(["photo", "add", samplePhoto, "--cache-dir", folder.path, "-q"])
            #expect(added.exitCode == 0, "\(added)")

            let canonical = try await CLIRunner.petspot(["cache", "prune", "--max-cache-size", "1B", "--dry-run", "--json", "--cache-dir", folder.path])
            let former = try await CLIRunner.petspot(["cache", "prune", "--max-size", "1B", "--dry-run", "--json", "--cache-dir", folder.path])
            let both = try await CLIRunner.petspot(["cache", "prune", "--max-size", "1B", "--max-cache-size", "2B", "--cache-dir", folder.path])
            let help = try await CLIRunner.petspot(["cache", "prune", "--help"])

            #expect(canonical.exitCode == 0 && former.exitCode == 0, "\(canonical)\n\(former)")
            #expect(try CacheCLISupport.jsonObject(canonical.stdout)["removed_entries"] as? Int == 1, "\(canonical.stdout)")
            #expect(canonical.stdout == former.stdout)
            #expect(both.exitCode == 64, "\(both)")
            #expect(help.stdout.contains("--max-cache-age") && !help.stdout.contains("--older-than <"), "\(help.stdout)")
        }
    }

    @Test(arguments: [["stats"], ["list"], ["verify"], ["stats", "--json"], ["list", "--json"]])
    func lookingAtACacheThatDoesNotExistCreatesNothing(_ command: [String]) async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let cache = folder.appendingPathComponent("cache")

            let result = try await CLIRunner.petspot(["cache"] + command + ["--cache-dir", cache.path])

            #expect(result.exitCode == 0, "\(result)")
            #expect(!FileManager.default.fileExists(atPath: cache.path), "\(command) created the cache")
        }
    }

    @Test(.enabled(if: getuid() == 0, "needs root to run the binary as another user"))
    func lookingAtACacheNeedsNoWriteAccess() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let cache = folder.appendingPathComponent("cache")
            let added = try await CLIRunner.petspot(["photo", "add", samplePhoto, "--cache-dir", cache.path, "-q"])
            #expect(added.exitCode == 0, "\(added)")
            chmod(folder.path, 0o755)
            // The build folder may sit where nobody cannot reach (a clone in /root is 0700): the
            // binaries run from a copy in the scratch folder, petspot-full beside petspot as installed.
            let bin = folder.appendingPathComponent("bin")
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            let built = try CLIRunner.petspotURL()
            for name in ["petspot", "petspot-full"] {
                try FileManager.default.copyItem(at: built.deletingLastPathComponent().appendingPathComponent(name),
                                                 to: bin.appendingPathComponent(name))
            }
            chmod(bin.path, 0o755)
            let petspot = bin.appendingPathComponent("petspot").path
            let frozen = try await CLIRunner.run(URL(fileURLWithPath: "/bin/chmod"), ["-R", "a+rX,a-w", cache.path])
            #expect(frozen.exitCode == 0, "\(frozen)")
            let before = try PhotoFixtures.contents(of: cache)

            for command in [["stats", "--json"], ["list", "--json"], ["verify"]] {
                // A child another test forks while the copy is open for writing holds that
                // descriptor until it execs; running the copy then fails with ETXTBSY for a moment.
                var result: CLIResult
                var attempt = 0
                repeat {
                    if attempt > 0 { try await Task.sleep(for: .milliseconds(20)) }
                    result = try await CLIRunner.run(
                        URL(fileURLWithPath: "/usr/bin/setpriv"),
                        ["--reuid=65534", "--regid=65534", "--clear-groups", petspot, "cache"]
                            + command + ["--cache-dir", cache.path])
                    attempt += 1
                } while result.exitCode == 126 && result.stderr.contains("Text file busy") && attempt < 100
                #expect(result.exitCode == 0, "\(command) as nobody: \(result)")
                if command == ["list", "--json"] { #expect(try result.jsonArray().count == 1, "\(result.stdout)") }
            }
            let shown = try await CLIRunner.run(
                URL(fileURLWithPath: "/usr/bin/setpriv"),
                ["--reuid=65534", "--regid=65534", "--clear-groups", petspot,
                 "report", "show", "--flow", "missing", "--json", "--cache-dir", cache.path],
                environment: ["PETSPOT_STATE_DIR": folder.appendingPathComponent("state").path])
            #expect(shown.exitCode == 0, "report show as nobody: \(shown)")
            #expect(try PhotoFixtures.contents(of: cache) == before)
            _ = try await CLIRunner.run(URL(fileURLWithPath: "/bin/chmod"), ["-R", "u+w", cache.path])
        }
    }

    @Test func photoAddRunsJobsInParallelAndReportsInArgumentOrder() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let files = ["jpeg-baseline.jpg", "png-rgba-alpha.png", "webp-lossy.webp", "png-palette.png"].map(PhotoFixtures.testImage)
            let missing = folder.appendingPathComponent("missing.jpg").path
            let notAnImage = PhotoFixtures.testImage("bad-not-an-image.jpg")

            let result = try await CLIRunner.petspot(["photo", "add"] + files + ["--jobs", "3", "--json", "--cache-dir", folder.appendingPathComponent("c").path])
            let forward = try await CLIRunner.petspot(["photo", "add", missing, notAnImage, "-q", "--cache-dir", folder.appendingPathComponent("d").path])
            let backward = try await CLIRunner.petspot(["photo", "add", notAnImage, missing, "-q", "--cache-dir", folder.appendingPathComponent("d").path])

            #expect(result.exitCode == 0, "\(result)")
            #expect(try result.jsonArray().map { $0["file"] as? String } == files)
            #expect(try result.jsonArray().allSatisfy { $0["mime_type"] as? String == "image/jpeg" })
            #expect(forward.exitCode == 66 && backward.exitCode == 66, "\(forward)\n\(backward)")
            #expect(forward.stdout.isEmpty && backward.stdout.isEmpty)
        }
    }

    @Test func anEmptyStateDirIsAUsageErrorAndARelativeXDGStateHomeIsReported() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let empty = try await CLIRunner.petspot(["report", "show", "--flow", "missing", "--state-dir", ""])
            let relative = try await CLIRunner.petspot(["report", "missing", "--species", "dog"], environment: [
                "PETSPOT_STATE_DIR": "", "XDG_STATE_HOME": "state", "HOME": folder.path,
                "PETSPOT_CACHE_DIR": folder.appendingPathComponent("cache").path])

            #expect(empty.exitCode == 64, "\(empty)")
            #expect(empty.stderr.contains("--state-dir '' names no folder"), "\(empty.stderr)")
            #expect(relative.exitCode == 0, "\(relative)")
            #expect(relative.stderr.contains("XDG_STATE_HOME=state is ignored"), "\(relative.stderr)")
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(".local/state/petspot/drafts/missing.json").path))
        }
    }
}
