import Foundation
import PhotoPipeline
import Testing
@testable import PhotoCache

@Suite struct AddTests {
    @Test func secondAddOfTheSamePhotoIsAHitThatDoesNoDecoding() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let preparer = CountingPreparer()
        let cache = try DiskPhotoCache.forTesting(temp.path, preparer: preparer)

        let miss = try cache.add(fileAt: Fixtures.path("jpeg-baseline.jpg"))
        let hit = try cache.add(fileAt: Fixtures.path("jpeg-baseline.jpg"))

        #expect(!miss.wasHit)
        #expect(hit.wasHit)
        #expect(preparer.count == 1)
        #expect(hit.cachedURL == miss.cachedURL)
        #expect(hit.cacheKey == miss.cacheKey)
        #expect(try cache.stats().entryCount == 1)
    }

    @Test func hitUpdatesTheLastAccess() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let clock = ManualClock()
        let cache = try DiskPhotoCache.forTesting(temp.path, clock: clock)
        let added = try cache.add(fileAt: Fixtures.path("png-rgba-alpha.png"))
        clock.advance(by: 3_600)
        _ = try cache.add(fileAt: Fixtures.path("png-rgba-alpha.png"))
        let entry = try #require(try cache.entry(forKey: added.cacheKey))
        #expect(entry.lastAccess == clock.now())
        #expect(entry.created == clock.now().addingTimeInterval(-3_600))
    }

    @Test func attachmentDescribesTheCachedPhoto() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let cache = try DiskPhotoCache.forTesting(temp.path)
        let attachment = try cache.add(fileAt: Fixtures.path("sample-photo.jpg"), options: PrepareOptions(maxDimension: 800))

        let bytes = try FileIO.read(attachment.cachedURL.path)
        #expect(attachment.mimeType == "image/jpeg")
        #expect(attachment.fileSize == bytes.count)
        #expect(max(attachment.width, attachment.height) == 800)
        #expect(attachment.capturedAt?.iso8601 == "2024-06-15T14:30:00+02:00")
        #expect(attachment.sourceFileName == "sample-photo.jpg")
        let info = try PhotoPipeline.inspect(bytes)
        #expect(info.uprightSize == PixelSize(width: attachment.width, height: attachment.height))

        let entry = try #require(try cache.entry(forKey: attachment.cacheKey))
        #expect(entry.sourceDigest == CacheKey(source: try Fixtures.bytes("sample-photo.jpg"), options: PrepareOptions()).sourceDigest)
        #expect(entry.fileDigest == Digest.sha256(bytes))
        #expect(entry.capturedAt == attachment.capturedAt)
    }

    @Test func filesAreContentAddressedAndNothingIsLeftInTmp() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let cache = try DiskPhotoCache.forTesting(temp.path)
        let attachment = try cache.add(fileAt: Fixtures.path("png-rgba-alpha.png"))
        let key = attachment.cacheKey
        #expect(attachment.cachedURL.path == temp.path("photos/\(key.prefix(2))/\(key).jpg"))
        #expect(cache.temporaryFiles.isEmpty)
        let mode = try #require(FileManager.default.attributesOfItem(atPath: temp.path("photos/\(key.prefix(2))"))[.posixPermissions] as? Int)
        #expect(mode == 0o700)
    }

    @Test(arguments: [(OutputFormat.webp, "webp", "image/webp"), (.png, "png", "image/png"), (.jpeg, "jpg", "image/jpeg")])
    func eachOutputFormatIsItsOwnEntry(_ format: OutputFormat, _ ext: String, _ mime: String) throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let cache = try DiskPhotoCache.forTesting(temp.path)
        let jpeg = try cache.add(fileAt: Fixtures.path("png-rgba-alpha.png"), options: PrepareOptions(encoding: EncodingOptions(format: .jpeg)))
        let other = try cache.add(fileAt: Fixtures.path("png-rgba-alpha.png"), options: PrepareOptions(encoding: EncodingOptions(format: format)))
        #expect(other.cachedURL.pathExtension == ext)
        #expect(other.mimeType == mime)
        #expect(other.wasHit == (format == .jpeg))
        #expect((other.cacheKey == jpeg.cacheKey) == (format == .jpeg))
    }

    @Test(arguments: ["bad-not-an-image.jpg", "bad-zero-bytes.jpg", "bad-truncated.png", "missing-file.jpg"])
    func refusedPhotoLeavesTheCacheUnchanged(_ name: String) throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let cache = try DiskPhotoCache.forTesting(temp.path)
        let error = #expect(throws: CacheError.self) { try cache.add(fileAt: Fixtures.path(name)) }
        guard case .photo(let photoError) = error else { Issue.record("expected a photo error, got \(String(describing: error))"); return }
        #expect(error?.description == photoError.description)
        #expect(try cache.stats().entryCount == 0)
        #expect(cache.temporaryFiles.isEmpty)
    }

    @Test func fileDeletedBehindTheCachesBackIsPreparedAgain() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let preparer = CountingPreparer()
        let cache = try DiskPhotoCache.forTesting(temp.path, preparer: preparer)
        let first = try cache.add(fileAt: Fixtures.path("png-rgba-alpha.png"))
        try FileManager.default.removeItem(at: first.cachedURL)

        let second = try cache.add(fileAt: Fixtures.path("png-rgba-alpha.png"))
        #expect(!second.wasHit)
        #expect(preparer.count == 2)
        #expect(FileManager.default.fileExists(atPath: second.cachedURL.path))
        #expect(try cache.verify().isClean)
    }

    @Test func concurrentAddsFromManyThreadsAllLand() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let cache = try DiskPhotoCache.forTesting(temp.path)
        let photos = try Fixtures.distinctPhotos(24)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, photo) in (photos + photos).enumerated() {
                group.addTask { _ = try cache.add(photo, sourceFileName: "photo-\(index % photos.count).jpg") }
            }
            try await group.waitForAll()
        }
        #expect(try cache.stats().entryCount == 24)
        #expect(try cache.verify().isClean)
    }
}
