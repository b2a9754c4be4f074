import Foundation
import PhotoPipeline
import Synchronization
import Testing
@testable import PetSpotServer

/// ``PhotoVariants`` over a disk store that counts (and can hold) what it is asked.
@Suite struct PhotoVariantsUnitTests {
    /// A disk store that counts whole-photo reads, can hold them until released, and can run
    /// something just before a variant is stored.
    final class WatchedStore: PhotoStoring, @unchecked Sendable {
        let inner: DiskPhotoStore
        let wholeReads = Atomic<Int>(0)
        let gate = Mutex<[CheckedContinuation<Void, Never>]>([])
        let holding = Atomic<Bool>(false)
        var beforeVariantStore: (@Sendable () async -> Void)?

        init(root: String) throws { inner = try DiskPhotoStore(root: root) }

        func store(_ data: [UInt8], as key: String) async throws {
            if PhotoVariant.parse(storeKey: key) != nil { await beforeVariantStore?() }
            try await inner.store(data, as: key)
        }
        func data(for key: String) async throws -> [UInt8]? {
            wholeReads.add(1, ordering: .relaxed)
            if holding.load(ordering: .relaxed) { await withCheckedContinuation { continuation in gate.withLock { $0.append(continuation) } } }
            return try await inner.data(for: key)
        }
        func open(_ key: String) async throws -> (any StoredPhotoReader)? { try await inner.open(key) }
        func remove(_ key: String) async throws { try await inner.remove(key) }
        func keys() async throws -> Set<String> { try await inner.keys() }
        func release() { for continuation in gate.withLock({ list in defer { list = [] }; return list }) { continuation.resume() } }
    }

    private func fixture(queueLimit: Int = 16) async throws -> (WatchedStore, PhotoVariants, digest: Substring, cleanup: () -> Void) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("petspot-variants-\(UUID().uuidString)").path
        let store = try WatchedStore(root: root)
        // 640 × 480: a w320 variant, no w640 or w1200.
        let key = try await store.store(try TestImages.bytes("jpeg-baseline.jpg"), fileExtension: "jpg")
        let processor = PhotoProcessor(maxPhotoBytes: 2_000_000, maxPixels: 50_000_000, concurrency: 2)
        return (store, PhotoVariants(photos: store, processor: processor, queueLimit: queueLimit), PhotoKey.digest(of: key),
                { try? FileManager.default.removeItem(atPath: root) })
    }

    @Test func aWidthThePhotoDoesNotHaveNeverReadsThePhoto() async throws {
        let (store, variants, digest, cleanup) = try await fixture()
        defer { cleanup() }
        for _ in 0..<5 {
            #expect(try await variants.open(digest: digest, variant: PhotoVariant(size: .width(1200), format: .webp)) == nil)
            #expect(try await variants.open(digest: digest, variant: PhotoVariant(size: .width(640), format: .jpeg)) == nil)
        }
        #expect(store.wholeReads.load(ordering: .relaxed) == 0)
        #expect(try await variants.open(digest: digest, variant: PhotoVariant(size: .width(320), format: .jpeg)) != nil)
        #expect(store.wholeReads.load(ordering: .relaxed) == 1)
    }

    @Test func aVariantMadeWhileItsPhotoIsRemovedDoesNotOutliveIt() async throws {
        let (store, variants, digest, cleanup) = try await fixture()
        defer { cleanup() }
        let source = PhotoVariant.sourceKey(digest: digest)
        // The replacement's cleanup runs between the render and the variant's store.
        store.beforeVariantStore = { try? await store.inner.remove(source) }
        #expect(try await variants.open(digest: digest, variant: PhotoVariant(size: .full, format: .webp)) == nil)
        #expect(try await store.keys().isEmpty)
        #expect(variants.madeCount.load(ordering: .relaxed) == 0)
    }

    @Test func pastTheQueueLimitVariantsAreRefusedNotQueued() async throws {
        let (store, variants, digest, cleanup) = try await fixture(queueLimit: 2)
        defer { cleanup() }
        store.holding.store(true, ordering: .relaxed)
        let names: [PhotoVariant] = [.init(size: .width(320), format: .jpeg), .init(size: .width(320), format: .webp)]
        let held = names.map { variant in Task { try await variants.open(digest: digest, variant: variant) } }
        while store.gate.withLock({ $0.count }) < 2 { try await Task.sleep(for: .milliseconds(10)) }
        await #expect(throws: PhotoVariants.Busy.self) {
            try await variants.open(digest: digest, variant: PhotoVariant(size: .full, format: .webp))
        }
        store.holding.store(false, ordering: .relaxed)
        store.release()
        for task in held { #expect(try await task.value != nil) }
        #expect(try await variants.open(digest: digest, variant: PhotoVariant(size: .full, format: .webp)) != nil)
    }

    @Test func singleFlightHandsTheErrorToEveryWaiter() async throws {
        struct Broken: Error {}
        let flights = SingleFlight<String, Int>()
        final class Runs: Sendable { let count = Atomic<Int>(0) }
        let runs = Runs()
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    do {
                        _ = try await flights.run("k") {
                            runs.count.add(1, ordering: .relaxed)
                            try await Task.sleep(for: .milliseconds(100))
                            throw Broken()
                        }
                        return false
                    } catch { return error is Broken }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0 } && runs.count.load(ordering: .relaxed) == 1)
        #expect(await flights.count == 0)
        // The next call after a failure tries again.
        #expect(try await flights.run("k") { 7 } == 7)
    }
}
