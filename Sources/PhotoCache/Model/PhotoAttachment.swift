import Foundation
import PhotoPipeline

/// A prepared photo in the cache, ready to be uploaded with a report
/// (the original app's `PhotoAttachmentMetadata`).
public struct PhotoAttachment: Sendable, Hashable {
    /// The cached file; it stays there until it is evicted, cleared or, if pinned, unpinned.
    public var cachedURL: URL
    public var mimeType: String
    /// Size of the cached file in bytes.
    public var fileSize: Int
    public var width: Int
    public var height: Int
    /// When the source photo was taken, from its EXIF data.
    public var capturedAt: CaptureDate?
    /// The content address: SHA-256 over the source bytes and the output-shaping options.
    public var cacheKey: String
    /// The name of the file the photo came from, when known.
    public var sourceFileName: String?
    /// Whether the photo was already in the cache (nothing was decoded or encoded).
    public var wasHit: Bool
    /// How long the pipeline took to prepare the photo (`nil` on a hit), for timing reports.
    public var pipelineDuration: Duration?

    public init(cachedURL: URL, mimeType: String, fileSize: Int, width: Int, height: Int, capturedAt: CaptureDate?,
                cacheKey: String, sourceFileName: String?, wasHit: Bool, pipelineDuration: Duration? = nil) {
        self.cachedURL = cachedURL
        self.mimeType = mimeType
        self.fileSize = fileSize
        self.width = width
        self.height = height
        self.capturedAt = capturedAt
        self.cacheKey = cacheKey
        self.sourceFileName = sourceFileName
        self.wasHit = wasHit
        self.pipelineDuration = pipelineDuration
    }
}
