/// Limits checked on the header, before any pixel buffer is allocated.
public struct PhotoLimits: Sendable, Hashable, Codable {
    /// Largest input file accepted, in bytes. Default 50 MiB.
    public var maxInputBytes: Int
    /// Largest pixel count accepted (width × height), inclusive. Default 100 megapixels.
    public var maxPixels: Int

    public static let `default` = PhotoLimits(maxInputBytes: 50 << 20, maxPixels: 100_000_000)

    public init(maxInputBytes: Int = 50 << 20, maxPixels: Int = 100_000_000) {
        self.maxInputBytes = maxInputBytes
        self.maxPixels = maxPixels
    }

    /// Refuses a file by its byte count alone.
    public func check(byteCount: Int) throws(PhotoError) {
        if byteCount > maxInputBytes { throw .fileTooLarge(bytes: byteCount, limit: maxInputBytes) }
    }

    /// Refuses an image by its header: size limit, zero dimensions, too many pixels.
    public func check(_ info: ImageInfo) throws(PhotoError) {
        try check(byteCount: info.byteCount)
        let size = info.storedSize
        if size.width < 1 || size.height < 1 { throw .invalidDimensions(width: size.width, height: size.height) }
        for size in [size, info.codedSize].compactMap({ $0 }) where size.pixelCount > maxPixels {
            throw .tooManyPixels(width: size.width, height: size.height, limit: maxPixels)
        }
    }
}
