#if canImport(Glibc)
import Glibc
#endif
import Foundation
import PhotoPipeline
import Testing
@testable import PhotoCache

@Suite struct VerifyTests {
    enum Damage: String, CaseIterable, Sendable {
        case flipByte, truncate, delete, replaceWithDirectory
    }

    @Test func aFreshCacheVerifiesClean() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let cache = try DiskPhotoCache.forTesting(temp.path)
        for photo in try Fixtures.distinctPhotos(3) { _ = try cache.add(photo, sourceFileName: nil) }
        let report = try cache.verify()
        #expect(report.isClean)
        #expect(report.checkedEntries == 3 && report.intactEntries == 3)
    }

    @Test(arguments: Damage.allCases)
    func damagedFilesAreDetectedAndRepaired(_ damage: Damage) throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let cache = try DiskPhotoCache.forTesting(temp.path)
        let photos = try Fixtures.distinctPhotos(2)
        let victim = try cache.add(photos[0], sourceFileName: nil)
        let intact = try cache.add(photos[1], sourceFileName: nil)
        let path = victim.cachedURL.path
        switch damage {
        case .flipByte:
            var bytes = try FileIO.read(path)
            bytes[bytes.count / 2] ^= 0xFF
            try Data(bytes).write(to: victim.cachedURL)
        case .truncate:
            #expect(truncate(path, off_t(victim.fileSize / 2)) == 0)
        case .delete:
            try FileManager.default.removeItem(atPath: path)
        case .replaceWithDirectory:
            try FileManager.default.removeItem(atPath: path)
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        }

        let report = try cache.verify()
        #expect(!report.isConsistent)
        let issue = try #require(report.issues.first)
        #expect(report.issues.count == 1)
        #expect(issue.key == victim.cacheKey)
        switch damage {
        case .flipByte: #expect(issue.problem == .contentMismatch)
        case .truncate: #expect(issue.problem == .sizeMismatch(expected: victim.fileSize, actual: victim.fileSize / 2))
        case .delete: #expect(issue.problem == .missingFile)
        case .replaceWithDirectory:
            if case .unreadable = issue.problem {} else { Issue.record("expected unreadable, got \(issue.problem)") }
        }
        #expect(try cache.entry(forKey: victim.cacheKey) != nil, "verify without repair changes nothing")

        let repaired = try cache.verify(repair: true)
        #expect(repaired.repaired && repaired.issues.count == 1)
        #expect(try cache.entry(forKey: victim.cacheKey) == nil)
        if damage != .replaceWithDirectory { #expect(!FileManager.default.fileExists(atPath: path)) }
        #expect(try cache.entry(forKey: intact.cacheKey) != nil)
        if damage == .replaceWithDirectory { try FileManager.default.removeItem(atPath: path) }
        #expect(try cache.verify().isClean)
    }

    @Test func orphanFilesAndTemporaryLeftoversAreReportedAndSwept() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let cache = try DiskPhotoCache.forTesting(temp.path)
        let kept = try cache.add(fileAt: Fixtures.path("png-rgba-alpha.png"))
        let orphanKey = String(repeating: "c", count: 64)
        try FileManager.default.createDirectory(atPath: temp.path("photos/cc"), withIntermediateDirectories: true)
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: temp.path("photos/cc/\(orphanKey).jpg")))
        try Data([4, 5]).write(to: URL(fileURLWithPath: temp.path("tmp/\(orphanKey).A1b2C3")))
        try Data([6]).write(to: URL(fileURLWithPath: temp.path("photos/stray.txt")))

        let report = try cache.verify()
        #expect(report.isConsistent)
        #expect(!report.isClean)
        #expect(Set(report.leftovers.map(\.path)) == ["photos/cc/\(orphanKey).jpg", "tmp/\(orphanKey).A1b2C3", "photos/stray.txt"])

        let pruned = try cache.prune()
        #expect(pruned.evicted.isEmpty)
        #expect(pruned.leftovers.count == 3 && pruned.leftoverBytes == 6)
        #expect(try cache.verify().isClean)
        #expect(FileManager.default.fileExists(atPath: kept.cachedURL.path))
    }

    @Test func aTemporaryFileWhoseWriterIsAliveIsLeftAlone() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let cache = try DiskPhotoCache.forTesting(temp.path)
        let staged = try StagedFile.write([1, 2, 3], in: temp.path("tmp"), namePrefix: "live", writer: SystemFileWriter())
        defer { staged.discard() }
        #expect(try cache.verify(repair: true).isClean)
        #expect(try cache.prune().leftovers.isEmpty)
        #expect(FileManager.default.fileExists(atPath: staged.path))
    }

    @Test func aCorruptIndexIsReportedThenRebuiltFromTheFiles() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let photos = try Fixtures.distinctPhotos(3)
        var keys: Set<String> = []
        do {
            let cache = try DiskPhotoCache.forTesting(temp.path)
            for photo in photos { keys.insert(try cache.add(photo, sourceFileName: "x.jpg", flow: .missing).cacheKey) }
        }
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: temp.path("index.sqlite" + suffix)) }
        try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: temp.path("index.sqlite")))

        let error = #expect(throws: CacheError.self) { try DiskPhotoCache.forTesting(temp.path) }
        guard case .indexCorrupt = error else { Issue.record("expected indexCorrupt, got \(String(describing: error))"); return }
        #expect(error?.description.contains("petspot cache verify --repair") == true)
        #expect(try FileManager.default.subpathsOfDirectory(atPath: temp.path("photos")).filter { $0.hasSuffix(".jpg") }.count == 3)

        let location = CacheLocation(root: temp.url, source: .flag)
        let rebuilt = try DiskPhotoCache.rebuildIndex(location: location)
        #expect(rebuilt.indexRebuild?.importedFiles == 3)
        #expect(Set(try rebuilt.entries().map(\.key)) == keys)
        #expect(try rebuilt.entries().allSatisfy { $0.sourceFileName == nil && $0.pins.isEmpty })
        #expect(try rebuilt.verify().isClean)
        #expect(try rebuilt.add(photos[0], sourceFileName: nil).wasHit)
    }

    @Test func aMissingIndexIsRebuiltWhenTheCacheOpens() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let photos = try Fixtures.distinctPhotos(2)
        do {
            let cache = try DiskPhotoCache.forTesting(temp.path)
            for photo in photos { _ = try cache.add(photo, sourceFileName: nil) }
        }
        try Data([0xFF, 0xD8, 0xFF]).write(to: URL(fileURLWithPath: temp.path("photos/\(String(repeating: "d", count: 2))-not-a-key.jpg")))
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: temp.path("index.sqlite" + suffix)) }

        let cache = try DiskPhotoCache.forTesting(temp.path)
        #expect(cache.indexRebuild?.importedFiles == 2)
        #expect(cache.indexRebuild?.removedFiles == ["photos/dd-not-a-key.jpg"])
        #expect(try cache.verify().isClean)
        let reopened = try DiskPhotoCache.forTesting(temp.path)
        #expect(reopened.indexRebuild == nil)
    }
}
