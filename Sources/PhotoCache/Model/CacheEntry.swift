import Foundation
import PhotoPipeline

/// One row of the cache's index: a cached file and what is known about it.
public struct CacheEntry: Sendable, Hashable {
    /// SHA-256 (hex) over the source bytes and the output-shaping options.
    public var key: String
    /// The file's path relative to the cache folder, e.g. `photos/ab/abcdef….jpg`.
    public var path: String
    public var mimeType: String
    /// Size of the cached file in bytes.
    public var bytes: Int
    public var width: Int
    public var height: Int
    /// The name of the file the photo came from (`nil` for entries rebuilt from the files alone).
    public var sourceFileName: String?
    /// SHA-256 (hex) of the source file's bytes (`nil` for entries rebuilt from the files alone).
    public var sourceDigest: String?
    /// SHA-256 (hex) of the cached file's bytes, which `cache verify` compares against.
    public var fileDigest: String
    public var capturedAt: CaptureDate?
    public var created: Date
    public var lastAccess: Date
    /// The report flows whose current attachment this is.
    public var pins: [CacheFlow]

    public init(key: String, path: String, mimeType: String, bytes: Int, width: Int, height: Int,
                sourceFileName: String?, sourceDigest: String?, fileDigest: String, capturedAt: CaptureDate?,
                created: Date, lastAccess: Date, pins: [CacheFlow] = []) {
        self.key = key
        self.path = path
        self.mimeType = mimeType
        self.bytes = bytes
        self.width = width
        self.height = height
        self.sourceFileName = sourceFileName
        self.sourceDigest = sourceDigest
        self.fileDigest = fileDigest
        self.capturedAt = capturedAt
        self.created = created
        self.lastAccess = lastAccess
        self.pins = pins
    }

    /// Whether a report flow pins this entry.
    public var isPinned: Bool { !pins.isEmpty }
}
