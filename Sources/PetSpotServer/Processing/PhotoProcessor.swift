import Foundation
import NIOPosix
import PhotoPipeline

/// Runs uploaded photos through ``PhotoPipeline``: upright, long edge at most 2048 px, every
/// piece of metadata (GPS included) dropped but the colour profile's colour, re-encoded as JPEG
/// at the quality that keeps it within butteraugli 1.1 of the resized photo (``AutoQuality``) —
/// unless the upload already is that (a photo `petspot` prepared), whose image data is kept as
/// sent under the pipeline's own metadata (``PhotoPipeline/preparedForm(_:options:)``).
///
/// At most `concurrency` photos are decoded at once, on NIO's thread pool, and at most
/// `pixelBudget` declared pixels are decoded at once (a small PNG can declare 7000 × 7000 and
/// take 200 MB to decode), so memory stays bounded under any number of uploads and request
/// tasks are never blocked. The slots are taken in order of arrival, but one client address's
/// uploads one at a time: the rest of them wait behind their own, not in the shared queue, so an
/// address sending a batch of costly photos holds one slot and everyone else keeps the others.
struct PhotoProcessor: Sendable {
    let options: PrepareOptions
    private let slots: AsyncSemaphore
    private let pixels: AsyncSemaphore
    /// One upload at a time per client address.
    private let clients = KeyedLock()

    /// - Parameters:
    ///   - maxPhotoBytes: the largest upload; larger inputs are refused by the pipeline too.
    ///   - maxPixels: the largest declared pixel count decoded.
    ///   - concurrency: photos decoded at once.
    ///   - pixelBudget: declared pixels decoded at once, over all uploads; a photo larger than
    ///     the whole budget is decoded alone.
    init(maxPhotoBytes: Int, maxPixels: Int, concurrency: Int, pixelBudget: Int = ServerConfiguration.defaultDecodePixelBudget) {
        options = PrepareOptions(maxDimension: 2048, autoQuality: AutoQuality(),
                                 limits: PhotoLimits(maxInputBytes: maxPhotoBytes, maxPixels: maxPixels))
        slots = AsyncSemaphore(limit: concurrency)
        pixels = AsyncSemaphore(limit: pixelBudget)
    }

    /// What to store: the upload's image data under the pipeline's own metadata when it already
    /// is a prepared photo (upright JPEG within the size, no metadata but JFIF and a colour
    /// profile, decoding cleanly), else the pipeline's output; with its store key, digested once here.
    struct Result: Sendable {
        var data: [UInt8]
        /// ``PhotoKey/make(for:fileExtension:)`` of `data`.
        var key: String
        /// Whether the upload's image data was kept byte for byte (not re-encoded).
        var keptAsSent: Bool
        /// The stored photo's size.
        var size: PixelSize
        /// Where the upload says it was taken (EXIF GPS), which `data` no longer carries.
        var gps: GPSCoordinate?
    }

    /// A stored photo of `size` pixels through the pipeline with `options`, under the same
    /// decode slots and pixel budget as uploads; `load` reads its bytes once a slot is free
    /// (`nil`: the photo is gone, and so is the result).
    func render(size: PixelSize, options: PrepareOptions, load: @escaping @Sendable () async throws -> [UInt8]?) async throws -> PreparedPhoto? {
        let slots = self.slots
        return try await pixels.withSlot(units: size.width * size.height) {
            try await slots.withSlot {
                guard let bytes = try await load() else { return nil }
                return try await NIOThreadPool.singleton.runIfActive { try PhotoPipeline.prepare(bytes, options: options) }
            }
        }
    }

    /// How much of an upload is read to learn its declared size.
    static var headerBytes: Int { 512 * 1024 }

    /// The photo to store, or the pipeline's refusal; `client`'s uploads are processed one at a time.
    func process(_ file: UploadFile, client: String? = nil) async throws -> Result {
        guard let client else { return try await process(file) }
        return try await clients.withLock(client) { try await process(file) }
    }

    private func process(_ file: UploadFile) async throws -> Result {
        let path = file.path, inputBytes = file.byteCount
        let options = self.options
        // What the header declares decides the share of the pixel budget; a header that cannot
        // be read from the file's start takes the whole budget (and most likely fails at once).
        let head = file.prefix(Self.headerBytes)
        let declared = (try? PhotoPipeline.inspect(head)).map { info in
            max(info.storedSize.width * info.storedSize.height, (info.codedSize?.width ?? 0) * (info.codedSize?.height ?? 0))
        } ?? Int.max
        let slots = self.slots
        return try await pixels.withSlot(units: declared) {
            try await slots.withSlot {
                try await NIOThreadPool.singleton.runIfActive {
                    let start = ContinuousClock.now
                    let result: Result
                    // A prepared photo is read whole (it is what gets stored); anything else is
                    // prepared from the file, which a JPEG streams through a small window.
                    if let bytes = try PhotoPipeline.alreadyPrepared(contentsOf: path, options: options) {
                        // A prepared photo carries no metadata: no GPS; its header gives its size.
                        let size = try PhotoPipeline.inspect(Array(bytes.prefix(Self.headerBytes))).uprightSize
                        result = Result(data: bytes, key: PhotoKey.make(for: bytes, fileExtension: "jpg"), keptAsSent: true,
                                        size: size, gps: nil)
                    } else {
                        let prepared = try PhotoPipeline.prepare(contentsOf: path, options: options)
                        let fileExtension = prepared.format.mediaType.preferredExtension
                        result = Result(data: prepared.data, key: PhotoKey.make(for: prepared.data, fileExtension: fileExtension),
                                        keptAsSent: false, size: prepared.size, gps: prepared.source.gps)
                    }
                    ServerMetrics.photoProcessed(inputBytes: inputBytes, outputBytes: result.data.count,
                                                 duration: ContinuousClock.now - start, keptAsSent: result.keptAsSent)
                    return result
                }
            }
        }
    }
}
