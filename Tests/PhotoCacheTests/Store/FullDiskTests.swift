#if canImport(Glibc)
import Glibc
#endif
import Foundation
import PhotoPipeline
import Testing
@testable import PhotoCache

/// A full disk must give a clear error and leave the cache as it was: no partial file, nothing in
/// `tmp/`, earlier entries intact, `verify` clean.
@Suite struct FullDiskTests {
    @Test(.enabled(if: TmpfsMount.isAvailable, "needs permission to mount a tmpfs"))
    func aRealFullDiskFailsCleanlyAndTheCacheStaysConsistent() throws {
        let disk = try #require(TmpfsMount.make(size: "1m"))
        defer { disk.unmount() }
        let cache = try DiskPhotoCache.forTesting(disk.path + "/cache")
        let earlier = try cache.add(fileAt: Fixtures.path("png-rgba-alpha.png"))
        let filler = disk.fill()

        let error = #expect(throws: CacheError.self) {
            try cache.add(fileAt: Fixtures.path("sample-photo.jpg"))
        }
        #expect(error?.code == "cache-disk-full")
        #expect(error?.description.contains("disk holding the photo cache is full") == true)
        try expectUnchanged(cache, earlier: earlier)

        try FileManager.default.removeItem(atPath: filler)
        let later = try cache.add(fileAt: Fixtures.path("sample-photo.jpg"))
        #expect(!later.wasHit)
        #expect(try cache.verify().isClean)
    }

    @Test(arguments: [0, 1, 4096])
    func anInjectedWriteFailureFailsCleanlyAndTheCacheStaysConsistent(freeBytes: Int) throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let earlier = try DiskPhotoCache.forTesting(temp.path).add(fileAt: Fixtures.path("png-rgba-alpha.png"))
        let cache = try DiskPhotoCache.forTesting(temp.path, writer: FullDiskWriter(freeBytes: freeBytes))

        let error = #expect(throws: CacheError.self) {
            try cache.add(fileAt: Fixtures.path("jpeg-baseline.jpg"))
        }
        #expect(error?.code == "cache-disk-full")
        #expect(error?.description.contains("disk holding the photo cache is full") == true)
        try expectUnchanged(cache, earlier: earlier)
    }

    private func expectUnchanged(_ cache: DiskPhotoCache, earlier: PhotoAttachment) throws {
        #expect(cache.temporaryFiles.isEmpty)
        #expect(try cache.stats().entryCount == 1)
        #expect(try cache.entry(forKey: earlier.cacheKey) != nil)
        #expect(try FileIO.read(earlier.cachedURL.path).count == earlier.fileSize)
        let report = try cache.verify()
        #expect(report.isClean, "\(report)")
    }
}

/// An unwritable cache folder gives a clear error, and no cache is half-created.
@Suite struct UnwritableCacheTests {
    @Test func aCacheFolderUnderAFileCannotBeCreated() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try Data("x".utf8).write(to: URL(fileURLWithPath: temp.path("file")))
        let error = #expect(throws: CacheError.self) { try DiskPhotoCache.forTesting(temp.path("file/petspot")) }
        #expect(error?.code == "cache-cannot-create-directory")
        #expect(error?.description.contains("--cache-dir") == true)
    }

    @Test(.enabled(if: TmpfsMount.isAvailable, "needs permission to mount a tmpfs"))
    func aReadOnlyFileSystemIsReportedAsUnwritable() throws {
        let disk = try #require(TmpfsMount.make(size: "64k", readOnly: true))
        defer { disk.unmount() }
        let error = #expect(throws: CacheError.self) { try DiskPhotoCache.forTesting(disk.path + "/cache") }
        #expect(error?.code == "cache-cannot-create-directory")
        #expect(error?.description.contains("Read-only file system") == true)
    }
}
