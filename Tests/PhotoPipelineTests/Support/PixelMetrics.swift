import PhotoPipeline

/// Pixel comparisons with a tolerance, as real codecs never give exact values back.
enum PixelMetrics {
    /// Mean absolute difference per channel (0…255) over RGB, after expanding gray.
    static func meanAbsoluteDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        precondition(a.width == b.width && a.height == b.height, "sizes differ")
        var total = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.rgba(x: x, y: y), q = b.rgba(x: x, y: y)
                total += abs(Int(p.r) - Int(q.r)) + abs(Int(p.g) - Int(q.g)) + abs(Int(p.b) - Int(q.b))
            }
        }
        return Double(total) / Double(a.width * a.height * 3)
    }

    /// Whether the pixel at (x, y) is within `tolerance` of an RGB colour.
    static func isClose(_ image: PixelBuffer, x: Int, y: Int, to color: (Int, Int, Int), tolerance: Int = 24) -> Bool {
        let p = image.rgba(x: x, y: y)
        return abs(Int(p.r) - color.0) <= tolerance && abs(Int(p.g) - color.1) <= tolerance && abs(Int(p.b) - color.2) <= tolerance
    }

    /// A smooth, colourful synthetic picture (no codec involved).
    static func gradient(width: Int, height: Int, alpha: Bool = false) -> PixelBuffer {
        let channels = alpha ? 4 : 3
        var pixels = [UInt8](repeating: 0, count: width * height * channels)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * channels
                pixels[i] = UInt8(x * 255 / max(1, width - 1))
                pixels[i + 1] = UInt8(y * 255 / max(1, height - 1))
                pixels[i + 2] = UInt8((x + y) * 127 / max(1, width + height - 2) + 64)
                if alpha { pixels[i + 3] = UInt8(255 - x * 255 / max(1, width - 1)) }
            }
        }
        return PixelBuffer(width: width, height: height, channels: channels, pixels: pixels)
    }
}
