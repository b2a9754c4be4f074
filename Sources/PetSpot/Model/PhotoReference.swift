/// A photo attached to a draft report, as the photo cache described it.
///
/// This module never reads the file: every field is opaque data that the cache and the
/// upload module fill in and use. It is `Codable` so a draft can be persisted with its photo.
public struct PhotoReference: Codable, Hashable, Sendable {
    /// The photo cache's key for the entry (e.g. its content hash).
    public var cacheKey: String
    /// Where the cached file lives on disk.
    public var path: String
    /// The MIME type of the cached file, e.g. `image/jpeg`.
    public var mimeType: String
    /// The size of the cached file in bytes.
    public var byteCount: Int
    /// The width of the cached image in pixels.
    public var width: Int
    /// The height of the cached image in pixels.
    public var height: Int

    /// Creates a photo reference.
    public init(cacheKey: String, path: String, mimeType: String, byteCount: Int, width: Int, height: Int) {
        self.cacheKey = cacheKey
        self.path = path
        self.mimeType = mimeType
        self.byteCount = byteCount
        self.width = width
        self.height = height
    }
}
