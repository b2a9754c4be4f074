import Foundation
import NIOPosix
import PhotoPipeline

/// Runs uploaded photos through ``PhotoPipeline``: upright, long edge at most 2048 px, every
/// piece of metadata (GPS included) dropped but the colour profile, re-encoded as JPEG — unless
/// the upload already is exactly that (a photo `petspot` prepared), which is kept as sent.
///
/// At most `concurrency` photos are decoded at once, on NIO's thread pool, so memory stays
/// bounded under any number of uploads and request tasks are never blocked.
struct PhotoProcessor: Sendable {
    let options: PrepareOptions
    private let slots: AsyncSemaphore

    /// - Parameters:
    ///   - maxPhotoBytes: the largest upload; larger inputs are refused by the pipeline too.
    ///   - maxPixels: the largest declared pixel count decoded.
    ///   - concurrency: photos decoded at once.
    init(maxPhotoBytes: Int, maxPixels: Int, concurrency: Int) {
        options = PrepareOptions(maxDimension: 2048,
                                 limits: PhotoLimits(maxInputBytes: maxPhotoBytes, maxPixels: maxPixels))
        slots = AsyncSemaphore(limit: concurrency)
    }

    /// What to store: the upload itself when it already is a prepared photo (upright JPEG
    /// within the size, no metadata but the colour profile, decoding cleanly), else the
    /// pipeline's output.
    struct Result: Sendable {
        var data: [UInt8]
        var fileExtension: String
        /// Whether the upload was kept byte for byte.
        var keptAsSent: Bool
    }

    /// The photo to store, or the pipeline's refusal.
    func process(_ file: UploadFile) async throws -> Result {
        let path = file.path
        let options = self.options
        return try await slots.withSlot {
            try await NIOThreadPool.singleton.runIfActive {
                let bytes = try FileIO.read(path, limit: options.limits.maxInputBytes)
                if PhotoPipeline.isAlreadyPrepared(bytes, options: options) {
                    return Result(data: bytes, fileExtension: "jpg", keptAsSent: true)
                }
                let prepared = try PhotoPipeline.prepare(bytes, options: options)
                return Result(data: prepared.data, fileExtension: prepared.format.mediaType.preferredExtension, keptAsSent: false)
            }
        }
    }
}
