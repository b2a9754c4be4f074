import Foundation
import Testing

/// `petspot photo add`, run as the built binary: stdout, stderr and the exit status.
@Suite struct PhotoAddCommandTests {
    private let samplePhoto = PhotoFixtures.testImage("sample-photo.jpg")

    private func field(_ label: String, _ output: String) -> String? { CacheCLISupport.field(label, in: output) }

    @Test func addPrintsTheAttachmentAndTheSecondAddIsAHit() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let cacheDir = folder.appendingPathComponent("cache").path
            let first = try await CLIRunner.petspot(["photo", "add", samplePhoto, "--cache-dir", cacheDir, "--max-dimension", "800"])
            #expect(first.exitCode == 0, "\(first)")
            #expect(first.stderr.isEmpty)
            let path = try #require(first.stdout.split(separator: "\n").first.map(String.init))
            #expect(path.hasPrefix(cacheDir + "/photos/") && path.hasSuffix(".jpg"))
            #expect(FileManager.default.fileExists(atPath: path))
            #expect(field("type", first.stdout) == "image/jpeg")
            #expect(field("pixels", first.stdout) == "600 × 800")
            #expect(field("captured", first.stdout) == "2024-06-15T14:30:00+02:00")
            #expect(field("cache", first.stdout)?.hasPrefix("miss") == true)
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
            #expect(field("size", first.stdout)?.hasSuffix("(\(size ?? -1) bytes)") == true)

            let second = try await CLIRunner.petspot(["photo", "add", samplePhoto, "--cache-dir", cacheDir, "--max-dimension", "800"])
            #expect(second.exitCode == 0, "\(second)")
            #expect(second.stdout.hasPrefix(path + "\n"))
            #expect(field("cache", second.stdout)?.hasPrefix("hit") == true)
        }
    }

    @Test func jsonOutputHasAStableShape() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let result = try await CLIRunner.petspot(["photo", "add", PhotoFixtures.testImage("png-rgba-alpha.png"), "--json",
                                                      "--format", "webp", "--cache-dir", folder.path])
            #expect(result.exitCode == 0, "\(result)")
            let record = try #require(try result.jsonArray().first)
            #expect(Set(record.keys) == ["file", "cached_path", "mime_type", "bytes", "width", "height", "cache_hit", "cache_key"])
            #expect(record["mime_type"] as? String == "image/webp")
            #expect(record["cache_hit"] as? Bool == false)
            #expect((record["cached_path"] as? String)?.hasSuffix(".webp") == true)
            #expect(record["width"] as? Int == 96 && record["height"] as? Int == 64)
        }
    }

    @Test(arguments: ["missing", "found"])
    func flowPinsThePhotoAsTheReportsCurrentAttachment(_ flow: String) async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let added = try await CLIRunner.petspot(["photo", "add", samplePhoto, "--flow", flow, "--json", "--cache-dir", folder.path])
            #expect(added.exitCode == 0, "\(added)")
            let key = try #require(try added.jsonArray().first?["cache_key"] as? String)
            #expect(try added.jsonArray().first?["pinned_for"] as? String == flow)

            let stats = try await CLIRunner.petspot(["cache", "stats", "--json", "--cache-dir", folder.path])
            let object = try CacheCLISupport.jsonObject(stats.stdout)
            #expect(object["pinned_entries"] as? Int == 1)
            #expect(((object["pinned"] as? [String: Any])?[flow] as? [String: Any])?["key"] as? String == key)
        }
    }

    @Test func flowWithSeveralFilesIsAUsageError() async throws {
        let result = try await CLIRunner.petspot(["photo", "add", samplePhoto, samplePhoto, "--flow", "found", "--cache-dir", "/tmp/unused"])
        #expect(result.exitCode == 64, "\(result)")
        #expect(result.stderr.contains("--flow pins one photo"))
    }

    @Test func aRefusedPhotoExits65AndTheOthersAreStillAdded() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let result = try await CLIRunner.petspot(["photo", "add", PhotoFixtures.testImage("bad-truncated.png"),
                                                      PhotoFixtures.testImage("png-rgba-alpha.png"), "--cache-dir", folder.path])
            #expect(result.exitCode == 65, "\(result)")
            #expect(result.stderr.hasPrefix("error: \(PhotoFixtures.testImage("bad-truncated.png")): "))
            #expect(field("cache", result.stdout)?.hasPrefix("miss") == true)
        }
    }

    @Test func anUnwritableCacheFolderExits73WithAClearMessage() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let blocker = folder.appendingPathComponent("file")
            try Data("x".utf8).write(to: blocker)
            let result = try await CLIRunner.petspot(["photo", "add", samplePhoto, "--cache-dir", blocker.path + "/cache"])
            #expect(result.exitCode == 73, "\(result)")
            #expect(result.stderr.hasPrefix("error: Cannot create the photo cache folder"))
            #expect(result.stdout.isEmpty)
        }
    }

    @Test func aFullDiskExits74AndTheCacheStaysConsistent() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            guard CacheCLISupport.mountTmpfs(folder.path, size: "1m") else { return } // not allowed here; the library tests inject the failure
            defer { CacheCLISupport.unmount(folder.path) }
            let cacheDir = folder.appendingPathComponent("cache").path
            let small = try await CLIRunner.petspot(["photo", "add", PhotoFixtures.testImage("png-rgba-alpha.png"), "--cache-dir", cacheDir])
            #expect(small.exitCode == 0, "\(small)")
            CacheCLISupport.fill(folder.path)

            let full = try await CLIRunner.petspot(["photo", "add", samplePhoto, "--cache-dir", cacheDir])
            #expect(full.exitCode == 74, "\(full)")
            #expect(full.stderr.contains("The disk holding the photo cache is full"), "\(full.stderr)")
            // On the full disk, prune can still run (the index's -wal and -shm files persist).
            let prune = try await CLIRunner.petspot(["cache", "prune", "--cache-dir", cacheDir])
            #expect(prune.exitCode == 0, "\(prune)")
            try FileManager.default.removeItem(atPath: folder.path + "/filler")
            let verify = try await CLIRunner.petspot(["cache", "verify", "--cache-dir", cacheDir])
            #expect(verify.exitCode == 0, "\(verify)")
            #expect(verify.stdout.contains("The cache is clean."))
        }
    }
}
