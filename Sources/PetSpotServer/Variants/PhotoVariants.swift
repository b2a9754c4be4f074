import Foundation
import NIOCore
import PetSpot
import PhotoPipeline
import Synchronization

/// Makes and finds the variants of stored photos (``PhotoVariant``): on first request, from the
/// stored photo, through the same decode slots as uploads, once per variant however many
/// requests for it arrive together (per process; two replicas may both make it, and store the
/// same picture under the same key: the same bytes when they run the same number of threads per
/// photo, since two threads on a JPEG with restart markers encode it in two halves joined at one).
final class PhotoVariants: Sendable {
    let photos: any PhotoStoring
    let processor: PhotoProcessor
    private let flights = SingleFlight<String, Bool>()
    /// Stored photos' pixel sizes by key (a key never changes meaning, so nothing goes stale).
    private let sizes = Mutex<[String: PixelSize]>([:])
    /// Variants this process made (for tests and the note's figures).
    let madeCount = Atomic<Int>(0)
    /// Variants being made or waiting for a decode slot.
    private let waiting = Atomic<Int>(0)

    /// The most variants made or waiting at once; past it, 503.
    let queueLimit: Int

    /// The most sizes remembered before the memo starts again (~100 bytes each).
    static var sizeMemoLimit: Int { 50_000 }
    /// How much of a stored photo is read to learn its size: the JPEG header and its colour profile.
    static var headerBytes: Int { 64 * 1024 }

    /// - Parameter queueLimit: the most variants made or waiting for a decode slot at once.
    init(photos: any PhotoStoring, processor: PhotoProcessor, queueLimit: Int = 16) {
        self.photos = photos
        self.processor = processor
        self.queueLimit = queueLimit
    }

    /// A reader for `variant` of the photo with `digest`, made first when it is not stored yet;
    /// `nil` when there is no such photo, or it has no such variant (not wider than the width).
    /// - Throws: ``Busy`` when too many variants are being made already.
    func open(digest: Substring, variant: PhotoVariant) async throws -> (any StoredPhotoReader)? {
        let source = PhotoVariant.sourceKey(digest: digest)
        if variant.isSourceItself { return try await photos.open(source) }
        // From the photo's header (read once, then remembered): a width the photo does not
        // have costs no read of the photo, however often it is asked for.
        guard let size = try await size(of: source), variant.exists(forSourceWidth: size.width) else { return nil }
        let key = variant.storeKey(digest: digest)
        if let reader = try await photos.open(key) { return reader }
        let made = try await flights.run(key) { [self] in try await make(variant, of: source, size: size, as: key) }
        return made ? try await photos.open(key) : nil
    }

    /// Too many variants are queued to be made: answered 503 with `Retry-After`, so a client
    /// asking for every size of every photo at once cannot hold the decode slots uploads need.
    struct Busy: Error {}

    /// The variants of the photo stored under `key` with their URLs, narrowest first; `nil`
    /// when its size cannot be learnt (no such photo, or the store is failing: the caller
    /// still has the photo's own URL).
    func links(for key: String, url: (String) -> String) async -> [PhotoVariantLink]? {
        guard PhotoKey.isValid(key), key.hasSuffix(".jpg"), let size = try? await size(of: key) else { return nil }
        let digest = PhotoKey.digest(of: key)
        return PhotoVariant.all(sourceWidth: size.width).map { variant in
            let pixels = variant.pixelSize(source: size)
            return PhotoVariantLink(width: pixels.width, height: pixels.height, format: variant.format.rawValue,
                                    url: url("\(digest)/\(variant.name)"))
        }
    }

    /// The pixel size of the photo stored under `key`, from its header; `nil` when none is stored.
    func size(of key: String) async throws -> PixelSize? {
        if let known = sizes.withLock({ $0[key] }) { return known }
        guard let reader = try await photos.open(key) else { return nil }
        var head: [UInt8] = []
        try await reader.read(0..<min(reader.size, Self.headerBytes), chunkSize: Self.headerBytes) { head += Array(buffer: $0) }
        let info: ImageInfo
        do {
            info = try PhotoPipeline.inspect(head)
        } catch {
            // A header longer than the first read (a large colour profile): the whole photo.
            guard let whole = try await photos.data(for: key) else { return nil }
            info = try PhotoPipeline.inspect(whole)
        }
        remember(info.uprightSize, for: key)
        return info.uprightSize
    }

    private func remember(_ size: PixelSize, for key: String) {
        sizes.withLock { memo in
            if memo.count >= Self.sizeMemoLimit { memo.removeAll(keepingCapacity: true) }
            memo[key] = size
        }
    }

    /// Makes `variant` from the photo at `source` and stores it at `key`. - Returns: `false`
    /// when the photo is gone.
    private func make(_ variant: PhotoVariant, of source: String, size: PixelSize, as key: String) async throws -> Bool {
        guard waiting.add(1, ordering: .relaxed).newValue <= queueLimit else {
            waiting.subtract(1, ordering: .relaxed)
            throw Busy()
        }
        defer { waiting.subtract(1, ordering: .relaxed) }
        let start = ContinuousClock.now
        var limits = processor.options.limits
        limits.maxInputBytes = .max  // a stored photo, made by this server; it may outgrow the upload limit
        let options = variant.prepareOptions(source: size, limits: limits)
        let photos = self.photos
        // The photo is read once a decode slot is free, not while waiting for one.
        guard let prepared = try await processor.render(size: size, options: options, load: { try await photos.data(for: source) }) else {
            return false
        }
        try await photos.store(prepared.data, as: key)
        // A replacement removes the photo, then its variants: if the photo is gone now, this
        // variant may have been stored after that cleanup; it must not outlive its photo.
        guard try await photos.open(source) != nil else {
            try? await photos.remove(key)
            return false
        }
        madeCount.add(1, ordering: .relaxed)
        ServerMetrics.variantGenerated(variant: variant.name, outputBytes: prepared.data.count, duration: ContinuousClock.now - start)
        return true
    }
}
