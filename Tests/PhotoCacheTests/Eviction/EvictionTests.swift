import Foundation
import PhotoPipeline
import Testing
@testable import PhotoCache

@Suite struct EvictionTests {
    let photos: [[UInt8]]

    init() throws {
        photos = try Fixtures.distinctPhotos(4)
    }

    private func add(_ index: Int, to cache: DiskPhotoCache, clock: ManualClock, flow: CacheFlow? = nil) throws -> PhotoAttachment {
        clock.advance(by: 1)
        return try cache.add(photos[index], sourceFileName: "photo-\(index).jpg", flow: flow)
    }

    private func isCached(_ attachment: PhotoAttachment, in cache: DiskPhotoCache) throws -> Bool {
        let row = try cache.entry(forKey: attachment.cacheKey) != nil
        let file = FileManager.default.fileExists(atPath: attachment.cachedURL.path)
        #expect(row == file, "row and file disagree for \(attachment.sourceFileName ?? "")")
        return row && file
    }

    @Test func leastRecentlyUsedEntryIsEvictedFirstAfterAnAdd() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let clock = ManualClock()
        let unlimited = try DiskPhotoCache.forTesting(temp.path, clock: clock)
        let a = try add(0, to: unlimited, clock: clock)
        let b = try add(1, to: unlimited, clock: clock)
        let c = try add(2, to: unlimited, clock: clock)
        _ = try add(0, to: unlimited, clock: clock) // a is now the most recently used
        let dSize = try PhotoPipeline.prepare(photos[3]).byteCount

        let limited = try DiskPhotoCache.forTesting(temp.path, limits: CacheLimits(maxBytes: a.fileSize + c.fileSize + dSize), clock: clock)
        let d = try add(3, to: limited, clock: clock)

        #expect(try !isCached(b, in: limited))
        for kept in [a, c, d] { #expect(try isCached(kept, in: limited)) }
        #expect(try limited.stats().totalBytes == a.fileSize + c.fileSize + d.fileSize)
    }

    @Test func pruneEvictsInLeastRecentlyUsedOrderUntilTheSizeFits() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let clock = ManualClock()
        let cache = try DiskPhotoCache.forTesting(temp.path, clock: clock)
        let added = try (0..<4).map { try add($0, to: cache, clock: clock) }
        _ = try add(1, to: cache, clock: clock)
        let order = [added[0], added[2], added[3], added[1]].map(\.cacheKey)

        let report = try cache.prune(limits: CacheLimits(maxBytes: added[1].fileSize))
        #expect(report.evicted.map(\.key) == Array(order.prefix(3)))
        #expect(report.evictedBytes == added[0].fileSize + added[2].fileSize + added[3].fileSize)
        #expect(try cache.entries().map(\.key) == [added[1].cacheKey])
    }

    @Test func entriesUnusedForLongerThanTheAgeLimitAreEvicted() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let clock = ManualClock()
        let cache = try DiskPhotoCache.forTesting(temp.path, limits: CacheLimits(maxAge: 10 * 86_400), clock: clock)
        let old = try add(0, to: cache, clock: clock)
        let used = try add(1, to: cache, clock: clock)
        clock.advance(by: 5 * 86_400)
        _ = try add(1, to: cache, clock: clock) // used again: its age starts over
        clock.advance(by: 6 * 86_400)
        let fresh = try add(2, to: cache, clock: clock)

        #expect(try !isCached(old, in: cache))
        #expect(try isCached(used, in: cache))
        #expect(try isCached(fresh, in: cache))
    }

    @Test func theJustAddedPhotoStaysEvenWhenItAloneIsOverTheLimit() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let clock = ManualClock()
        let cache = try DiskPhotoCache.forTesting(temp.path, limits: CacheLimits(maxBytes: 1), clock: clock)
        let first = try add(0, to: cache, clock: clock)
        #expect(try isCached(first, in: cache))
        let second = try add(1, to: cache, clock: clock)
        #expect(try isCached(second, in: cache))
        #expect(try !isCached(first, in: cache))
    }

    @Test(arguments: CacheFlow.allCases)
    func pinnedEntriesSurviveEviction(_ flow: CacheFlow) throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let clock = ManualClock()
        let cache = try DiskPhotoCache.forTesting(temp.path, limits: CacheLimits(maxBytes: 1, maxAge: 60), clock: clock)
        let pinned = try add(0, to: cache, clock: clock, flow: flow)
        clock.advance(by: 3_600)
        let other = try add(1, to: cache, clock: clock)
        let last = try add(2, to: cache, clock: clock)

        #expect(try isCached(pinned, in: cache))
        #expect(try !isCached(other, in: cache))
        #expect(try isCached(last, in: cache))
        #expect(try cache.prune(limits: CacheLimits(maxBytes: 0, maxAge: 1)).evicted.map(\.key) == [last.cacheKey])
        #expect(try isCached(pinned, in: cache))
        #expect(try cache.currentAttachment(for: flow)?.cacheKey == pinned.cacheKey)
    }

    @Test func aNewPinReplacesTheFlowsPreviousOneAndUnpinReleasesIt() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let clock = ManualClock()
        let cache = try DiskPhotoCache.forTesting(temp.path, clock: clock)
        let first = try add(0, to: cache, clock: clock, flow: .missing)
        let found = try add(1, to: cache, clock: clock, flow: .found)
        let second = try add(2, to: cache, clock: clock, flow: .missing)

        #expect(try cache.currentAttachment(for: .missing)?.cacheKey == second.cacheKey)
        #expect(try cache.currentAttachment(for: .found)?.cacheKey == found.cacheKey)
        #expect(try cache.entry(forKey: first.cacheKey)?.pins == [])
        #expect(try cache.entry(forKey: second.cacheKey)?.pins == [.missing])
        #expect(try cache.stats().pinnedCount == 2)

        try cache.unpin(flow: .missing)
        #expect(try cache.currentAttachment(for: .missing) == nil)
        let report = try cache.prune(limits: CacheLimits(maxBytes: 0))
        #expect(Set(report.evicted.map(\.key)) == [first.cacheKey, second.cacheKey])
        #expect(try isCached(found, in: cache))
    }

    @Test func pinningAnExistingEntryAndAnUnknownKey() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let clock = ManualClock()
        let cache = try DiskPhotoCache.forTesting(temp.path, clock: clock)
        let entry = try add(0, to: cache, clock: clock)
        try cache.pin(key: entry.cacheKey, for: .found)
        #expect(try cache.currentAttachment(for: .found)?.cacheKey == entry.cacheKey)
        let unknown = String(repeating: "0", count: 64)
        #expect(throws: CacheError.unknownEntry(key: unknown)) { try cache.pin(key: unknown, for: .found) }
    }

    @Test func clearKeepsPinnedEntriesUnlessAll() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let clock = ManualClock()
        let cache = try DiskPhotoCache.forTesting(temp.path, clock: clock)
        let missing = try add(0, to: cache, clock: clock, flow: .missing)
        let found = try add(1, to: cache, clock: clock, flow: .found)
        let loose = try [add(2, to: cache, clock: clock), add(3, to: cache, clock: clock)]

        let dryRun = try cache.clear(dryRun: true)
        #expect(dryRun.evicted.count == 2)
        #expect(try cache.stats().entryCount == 4)

        let cleared = try cache.clear()
        #expect(Set(cleared.evicted.map(\.key)) == Set(loose.map(\.cacheKey)))
        #expect(cleared.freedBytes == loose.reduce(0) { $0 + $1.fileSize })
        for attachment in loose { #expect(try !isCached(attachment, in: cache)) }
        #expect(try isCached(missing, in: cache))
        #expect(try isCached(found, in: cache))

        let all = try cache.clear(includingPinned: true)
        #expect(all.evicted.count == 2)
        let stats = try cache.stats()
        #expect(stats.entryCount == 0 && stats.totalBytes == 0 && stats.pinned.isEmpty)
        #expect(try cache.verify().isClean)
    }

    @Test func pruneDryRunSaysWhatItWouldFreeAndRemovesNothing() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let clock = ManualClock()
        let cache = try DiskPhotoCache.forTesting(temp.path, clock: clock)
        let added = try (0..<3).map { try add($0, to: cache, clock: clock) }
        let report = try cache.prune(limits: CacheLimits(maxBytes: 0), dryRun: true)
        #expect(report.dryRun)
        #expect(report.evicted.map(\.key) == added.map(\.cacheKey))
        #expect(report.freedBytes == added.reduce(0) { $0 + $1.fileSize })
        for attachment in added { #expect(try isCached(attachment, in: cache)) }
    }

    @Test func statsComeFromTheIndex() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let clock = ManualClock()
        let cache = try DiskPhotoCache.forTesting(temp.path, limits: CacheLimits(maxBytes: 10 << 20, maxAge: 86_400), clock: clock)
        let first = try add(0, to: cache, clock: clock, flow: .found)
        let second = try add(1, to: cache, clock: clock)
        let stats = try cache.stats()
        #expect(stats.entryCount == 2)
        #expect(stats.totalBytes == first.fileSize + second.fileSize)
        #expect(stats.limits == CacheLimits(maxBytes: 10 << 20, maxAge: 86_400))
        #expect(stats.oldestCreated == clock.now().addingTimeInterval(-1))
        #expect(stats.newestCreated == clock.now())
        #expect(stats.pinnedCount == 1 && stats.pinnedBytes == first.fileSize)
        #expect(stats.pinned[.found]?.key == first.cacheKey)
    }

    @Test(arguments: CacheSortOrder.allCases)
    func entriesCanBeListedInEveryOrder(_ order: CacheSortOrder) throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let clock = ManualClock()
        let cache = try DiskPhotoCache.forTesting(temp.path, clock: clock)
        _ = try (0..<4).map { try add($0, to: cache, clock: clock) }
        let entries = try cache.entries(sortedBy: order)
        let expected: [CacheEntry] = switch order {
        case .lastAccess: entries.sorted { $0.lastAccess > $1.lastAccess }
        case .leastRecentlyUsed: entries.sorted { $0.lastAccess < $1.lastAccess }
        case .size: entries.sorted { $0.bytes > $1.bytes }
        case .created: entries.sorted { $0.created > $1.created }
        }
        #expect(entries.count == 4)
        #expect(entries == expected)
        #expect(try cache.entries(sortedBy: order, limit: 2) == Array(expected.prefix(2)))
    }
}
