import Foundation
import Testing

/// `petspot cache path | stats | list | prune | clear | verify`, run as the built binary.
@Suite struct CacheCommandsTests {
    private func add(_ names: [String], to cacheDir: String, extra: [String] = []) async throws {
        let result = try await CLIRunner.petspot(["photo", "add"] + names.map(PhotoFixtures.testImage) + ["--cache-dir", cacheDir] + extra)
        #expect(result.exitCode == 0, "\(result)")
    }

    @Test(arguments: [
        ([String](), ["PETSPOT_CACHE_DIR": "/srv/a", "XDG_CACHE_HOME": "/srv/b"], "/srv/a"),
        (["--cache-dir", "/srv/flag"], ["PETSPOT_CACHE_DIR": "/srv/a"], "/srv/flag"),
        ([], ["PETSPOT_CACHE_DIR": "", "XDG_CACHE_HOME": "/srv/b"], "/srv/b/petspot"),
        ([], ["PETSPOT_CACHE_DIR": "", "XDG_CACHE_HOME": "relative/cache", "HOME": "/home/pet"], "/home/pet/.cache/petspot"),
        ([], ["PETSPOT_CACHE_DIR": "", "XDG_CACHE_HOME": "", "HOME": "/home/pet"], "/home/pet/.cache/petspot"),
    ])
    func pathFollowsFlagThenEnvironmentThenXDGThenHome(_ arguments: [String], _ environment: [String: String], _ expected: String) async throws {
        let result = try await CLIRunner.petspot(["cache", "path"] + arguments, environment: environment)
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdout == expected + "\n")
    }

    @Test func statsSaysCountSizeLimitAndPins() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            try await add(["png-rgba-alpha.png"], to: folder.path, extra: ["--flow", "found"])
            try await add(["jpeg-baseline.jpg"], to: folder.path)
            let human = try await CLIRunner.petspot(["cache", "stats", "--cache-dir", folder.path, "--max-cache-size", "1.5 GiB"],
                                                    environment: ["PETSPOT_CACHE_MAX_AGE": "2w"])
            #expect(human.exitCode == 0, "\(human)")
            #expect(CacheCLISupport.field("entries", in: human.stdout) == "2")
            #expect(CacheCLISupport.field("size", in: human.stdout)?.contains("of 1.5 GiB") == true, "\(human.stdout)")
            #expect(CacheCLISupport.field("max age", in: human.stdout) == "14 days unused")
            #expect(CacheCLISupport.field("pinned", in: human.stdout)?.contains("found: ") == true)

            let json = try await CLIRunner.petspot(["cache", "stats", "--json", "--cache-dir", folder.path])
            let object = try CacheCLISupport.jsonObject(json.stdout)
            #expect(object["entries"] as? Int == 2)
            #expect(object["max_bytes"] as? Int == 512 << 20)
            #expect((object["max_age_seconds"] as? NSNumber)?.doubleValue == 2_592_000.0)
            #expect(object["oldest_created"] is String && object["newest_created"] is String)
            #expect(object["pinned_entries"] as? Int == 1)
        }
    }

    @Test func listPrintsATableOrJSONInTheAskedOrder() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            try await add(["png-rgba-alpha.png", "jpeg-baseline.jpg", "exif-orientation-1.jpg"], to: folder.path)
            let table = try await CLIRunner.petspot(["cache", "list", "--sort", "size", "--cache-dir", folder.path])
            #expect(table.exitCode == 0, "\(table)")
            let lines = table.stdout.split(separator: "\n")
            #expect(lines.count == 4)
            #expect(lines.first?.hasPrefix("KEY") == true)
            #expect(lines[1].hasSuffix("jpeg-baseline.jpg"))

            let json = try await CLIRunner.petspot(["cache", "list", "--json", "--sort", "size", "--cache-dir", folder.path])
            let rows = try json.jsonArray()
            let sizes = rows.compactMap { $0["bytes"] as? Int }
            #expect(sizes.count == 3 && sizes == sizes.sorted(by: >))
            #expect(rows.first?["source_file_name"] as? String == "jpeg-baseline.jpg")
            #expect(rows.allSatisfy { ($0["pins"] as? [String]) == [] })

            let empty = try await CLIRunner.petspot(["cache", "list", "--json", "--cache-dir", folder.appendingPathComponent("empty").path])
            #expect(try empty.jsonArray().isEmpty)
        }
    }

    @Test func listIntoAPipeClosedEarlyEndsQuietly() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            try CacheCLISupport.insertRows(3_000, into: folder)
            let binary = try CLIRunner.petspotURL().path
            let script = "set -o pipefail; \(CLIRunner.shellQuoted(binary)) cache list --json --cache-dir \(CLIRunner.shellQuoted(folder.path)) | head -n 3"
            let result = try await CLIRunner.run(URL(fileURLWithPath: "/bin/bash"), ["-c", script])
            #expect(result.exitCode == 0, "\(result)")
            #expect(result.stderr.isEmpty)
            #expect(result.stdout.split(separator: "\n").count == 3)

            let all = try await CLIRunner.petspot(["cache", "list", "--json", "--cache-dir", folder.path])
            #expect(try all.jsonArray().count == 3_000)
        }
    }

    @Test func pruneSaysWhatItWouldFreeThenFreesIt() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            try await add(["png-rgba-alpha.png"], to: folder.path, extra: ["--flow", "missing"])
            try await add(["jpeg-baseline.jpg", "exif-orientation-1.jpg"], to: folder.path)
            let dryRun = try await CLIRunner.petspot(["cache", "prune", "--max-size", "1B", "--dry-run", "--cache-dir", folder.path])
            #expect(dryRun.exitCode == 0, "\(dryRun)")
            #expect(dryRun.stdout.hasPrefix("Would free "))
            #expect(dryRun.stdout.contains("2 photos"))
            #expect(dryRun.stdout.contains("Nothing was removed"))

            let pruned = try await CLIRunner.petspot(["cache", "prune", "--max-size", "1B", "--json", "--cache-dir", folder.path])
            let report = try CacheCLISupport.jsonObject(pruned.stdout)
            #expect(report["removed_entries"] as? Int == 2)
            #expect(report["dry_run"] as? Bool == false)
            let list = try await CLIRunner.petspot(["cache", "list", "--json", "--cache-dir", folder.path])
            #expect(try list.jsonArray().map { $0["pins"] as? [String] } == [["missing"]])

            let nothing = try await CLIRunner.petspot(["cache", "prune", "--older-than", "12h", "--cache-dir", folder.path])
            #expect(nothing.stdout.hasPrefix("Nothing to free"), "\(nothing)")
        }
    }

    @Test(arguments: [
        (["cache", "prune", "--max-size", "lots"], [String: String](), "--max-size 'lots' is not a size"),
        (["cache", "prune", "--older-than", "30"], [:], "--older-than '30' is not an age"),
        (["cache", "stats"], ["PETSPOT_CACHE_MAX_SIZE": "huge"], "PETSPOT_CACHE_MAX_SIZE 'huge' is not a size"),
        (["cache", "stats"], ["PETSPOT_CACHE_MAX_AGE": "soon"], "PETSPOT_CACHE_MAX_AGE 'soon' is not an age"),
    ])
    func badSizesAndAgesAreUsageErrors(_ arguments: [String], _ environment: [String: String], _ message: String) async throws {
        let result = try await CLIRunner.petspot(arguments + ["--cache-dir", "/tmp/petspot-unused-cache"], environment: environment)
        #expect(result.exitCode == 64, "\(result)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func clearKeepsThePinnedPhotosUnlessIncludePinnedNamingTheReports() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            try await add(["png-rgba-alpha.png"], to: folder.path, extra: ["--flow", "found"])
            try await add(["jpeg-baseline.jpg", "exif-orientation-1.jpg"], to: folder.path)
            let cleared = try await CLIRunner.petspot(["cache", "clear", "--cache-dir", folder.path])
            #expect(cleared.exitCode == 0, "\(cleared)")
            #expect(cleared.stdout.hasPrefix("Freed "))
            #expect(cleared.stdout.contains("Kept 1 pinned photo"))
            let remaining = try await CLIRunner.petspot(["cache", "list", "--json", "--cache-dir", folder.path])
            #expect(try remaining.jsonArray().count == 1)

            // The old --all no longer removes open reports' photos silently: it says what to type.
            let old = try await CLIRunner.petspot(["cache", "clear", "--all", "--cache-dir", folder.path])
            #expect(old.exitCode == 64 && old.stderr.contains("--include-pinned"), "\(old)")
            let dryRun = try await CLIRunner.petspot(["cache", "clear", "--include-pinned", "--dry-run", "--cache-dir", folder.path])
            #expect(dryRun.stdout.contains("Would remove the photo of the open found-pet report"), "\(dryRun.stdout)")
            #expect(dryRun.stdout.contains("Would free "))
            #expect(try await CLIRunner.petspot(["cache", "list", "--json", "--cache-dir", folder.path]).jsonArray().count == 1)
            let all = try await CLIRunner.petspot(["cache", "clear", "--include-pinned", "--cache-dir", folder.path])
            #expect(all.stdout.contains("Removed the photo of the open found-pet report"), "\(all.stdout)")
            #expect(all.stdout.contains("1 photo"))
            let none = try await CLIRunner.petspot(["cache", "list", "--json", "--cache-dir", folder.path])
            #expect(try none.jsonArray().isEmpty)
        }
    }

    @Test func verifyFindsADamagedFileAndRepairs() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            try await add(["png-rgba-alpha.png", "jpeg-baseline.jpg"], to: folder.path)
            let list = try await CLIRunner.petspot(["cache", "list", "--json", "--cache-dir", folder.path])
            let path = try #require(try list.jsonArray().first?["path"] as? String)
            var bytes = try PhotoFixtures.bytes(path)
            bytes[bytes.count / 2] ^= 0x55
            try Data(bytes).write(to: URL(fileURLWithPath: path))

            let found = try await CLIRunner.petspot(["cache", "verify", "--cache-dir", folder.path])
            #expect(found.exitCode == 65, "\(found)")
            #expect(found.stdout.contains("1 with a missing or damaged file"))
            #expect(found.stdout.contains("content-mismatch"))

            let repaired = try await CLIRunner.petspot(["cache", "verify", "--repair", "--json", "--cache-dir", folder.path])
            #expect(repaired.exitCode == 0, "\(repaired)")
            #expect(try CacheCLISupport.jsonObject(repaired.stdout)["repaired"] as? Bool == true)
            #expect(!FileManager.default.fileExists(atPath: path))

            let clean = try await CLIRunner.petspot(["cache", "verify", "--cache-dir", folder.path])
            #expect(clean.exitCode == 0)
            #expect(clean.stdout.contains("Checked 1 entry: 1 intact."))
            #expect(clean.stdout.hasSuffix("The cache is clean.\n"))
        }
    }

    @Test func aCorruptIndexExits74UntilVerifyRepairRebuildsIt() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            try await add(["png-rgba-alpha.png", "jpeg-baseline.jpg"], to: folder.path)
            let index = folder.appendingPathComponent("index.sqlite")
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: index.path + suffix) }
            try Data(repeating: 0x42, count: 4096).write(to: index)

            for command in [["cache", "stats"], ["cache", "verify"], ["photo", "add", PhotoFixtures.testImage("sample-photo.jpg")]] {
                let failed = try await CLIRunner.petspot(command + ["--cache-dir", folder.path])
                #expect(failed.exitCode == 74, "\(command): \(failed)")
                #expect(failed.stderr.contains("index \(index.path) is damaged"), "\(failed.stderr)")
                #expect(failed.stderr.contains("petspot cache verify --repair"))
            }

            let repaired = try await CLIRunner.petspot(["cache", "verify", "--repair", "--cache-dir", folder.path])
            #expect(repaired.exitCode == 0, "\(repaired)")
            #expect(repaired.stdout.hasPrefix("The index was rebuilt from the cached files: 2 photos imported"))
            let stats = try await CLIRunner.petspot(["cache", "stats", "--json", "--cache-dir", folder.path])
            #expect(try CacheCLISupport.jsonObject(stats.stdout)["entries"] as? Int == 2)
        }
    }
}
