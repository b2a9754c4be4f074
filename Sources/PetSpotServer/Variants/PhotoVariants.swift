import Foundation
import NIOCore
import PetSpot
import PhotoPipeline
import Synchronization

/// Makes and finds the variants of stored photos (``PhotoVariant``): on first request, from the
/// stored photo, through the same decode slots as uploads, once per variant however many
/// requests for it arrive together (per process; two replicas may both make it, and store the
/// same bytes under the same key).
final class PhotoVariants: Sendable {
    let photos: any PhotoStoring
    let processor: PhotoProcessor
    private let flights = SingleFlight<String, Bool>()
    /// Stored photos' pixel sizes by key (a key never changes meaning, so nothing goes stale).
    private let sizes = Mutex<[String: PixelSize]>([:])
    /// Variants this process made (for tests and the note's figures).
    let madeCount = Atomic<Int>(0)

    /// The most sizes remembered before the memo starts again (~100 bytes each).
    static var sizeMemoLimit: Int { 50_000 }
    /// How much of a stored photo is read to learn its size: the JPEG header and its colour profile.
    static var headerBytes: Int { 64 * 1024 }

    init(photos: any PhotoStoring, processor: PhotoProcessor) {
        self.photos = photos
        self.processor = processor
    }

    /// A reader for `variant` of the photo with `digest`, made first when it is not stored yet;
    /// `nil` when there is no such photo.
    func open(digest: Substring, variant: PhotoVariant) async throws -> (any StoredPhotoReader)? {
        let source = PhotoVariant.sourceKey(digest: digest)
        if variant.isSourceItself { return try await photos.open(source) }
        let key = variant.storeKey(digest: digest)
        if let reader = try await photos.open(key) { return reader }
        let made = try await flights.run(key) { [self] in try await make(variant, of: source, as: key) }
        return made ? try await photos.open(key) : nil
    }

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
    /// when the photo is not stored or is not wider than the variant.
    private func make(_ variant: PhotoVariant, of source: String, as key: String) async throws -> Bool {
        guard let bytes = try await photos.data(for: source) else { return false }
        let start = ContinuousClock.now
        let info = try PhotoPipeline.inspect(bytes)
        remember(info.uprightSize, for: source)
        // Only the widths below the photo's own exist (the links never name the others).
        if case .width(let width) = variant.size, width >= info.uprightSize.width { return false }
        var limits = processor.options.limits
        limits.maxInputBytes = max(limits.maxInputBytes, bytes.count)  // a stored photo may outgrow the upload limit
        let options = variant.prepareOptions(source: info.uprightSize, limits: limits)
        let prepared = try await processor.render(bytes, size: info.storedSize, options: options)
        try await photos.store(prepared.data, as: key)
        madeCount.add(1, ordering: .relaxed)
        ServerMetrics.variantGenerated(variant: variant.name, outputBytes: prepared.data.count, duration: ContinuousClock.now - start)
        return true
    }
}
