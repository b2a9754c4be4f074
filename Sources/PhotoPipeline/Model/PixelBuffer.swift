/// Decoded 8-bit pixels, interleaved, rows packed without padding.
///
/// `channels` is 1 (gray), 3 (RGB) or 4 (RGBA, straight — not premultiplied — alpha).
public struct PixelBuffer: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var channels: Int
    public var pixels: [UInt8]

    /// Wraps pixels; `pixels.count` must be `width * height * channels`.
    public init(width: Int, height: Int, channels: Int, pixels: [UInt8]) {
        precondition([1, 3, 4].contains(channels), "channels must be 1, 3 or 4")
        precondition(pixels.count == width * height * channels, "pixel count does not match the size")
        self.width = width
        self.height = height
        self.channels = channels
        self.pixels = pixels
    }

    /// A buffer of the given size filled with zeros.
    public init(width: Int, height: Int, channels: Int) {
        self.init(width: width, height: height, channels: channels,
                  pixels: [UInt8](repeating: 0, count: width * height * channels))
    }

    /// Whether the buffer carries an alpha channel.
    public var hasAlpha: Bool { channels == 4 }

    /// Bytes per row.
    public var rowBytes: Int { width * channels }

    /// The pixel at (x, y) as RGBA (gray is repeated, missing alpha is 255).
    public func rgba(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let i = (y * width + x) * channels
        switch channels {
        case 1: return (pixels[i], pixels[i], pixels[i], 255)
        case 3: return (pixels[i], pixels[i + 1], pixels[i + 2], 255)
        default: return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
        }
    }
}
