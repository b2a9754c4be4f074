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

    /// Structural similarity (SSIM, Wang et al. 2004) of the luma of two same-size images,
    /// averaged over 8×8 windows with a step of 4; alpha is first flattened onto white.
    static func ssim(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        precondition(a.width == b.width && a.height == b.height, "sizes differ")
        let x = luma(a), y = luma(b)
        let c1 = (0.01 * 255) * (0.01 * 255), c2 = (0.03 * 255) * (0.03 * 255)
        let window = min(8, a.width, a.height), step = max(1, window / 2)
        var total = 0.0, count = 0
        for top in stride(from: 0, through: a.height - window, by: step) {
            for left in stride(from: 0, through: a.width - window, by: step) {
                var sx = 0.0, sy = 0.0, sxx = 0.0, syy = 0.0, sxy = 0.0
                for row in top..<(top + window) {
                    for col in left..<(left + window) {
                        let p = x[row * a.width + col], q = y[row * a.width + col]
                        sx += p; sy += q; sxx += p * p; syy += q * q; sxy += p * q
                    }
                }
                let n = Double(window * window)
                let mx = sx / n, my = sy / n
                let vx = sxx / n - mx * mx, vy = syy / n - my * my, cov = sxy / n - mx * my
                total += ((2 * mx * my + c1) * (2 * cov + c2)) / ((mx * mx + my * my + c1) * (vx + vy + c2))
                count += 1
            }
        }
        return total / Double(max(1, count))
    }

    /// Rec. 601 luma per pixel, alpha composited onto white.
    private static func luma(_ image: PixelBuffer) -> [Double] {
        var out = [Double](repeating: 0, count: image.width * image.height)
        for row in 0..<image.height {
            for col in 0..<image.width {
                let p = image.rgba(x: col, y: row)
                let a = Double(p.a) / 255
                func over(_ v: UInt8) -> Double { Double(v) * a + 255 * (1 - a) }
                out[row * image.width + col] = 0.299 * over(p.r) + 0.587 * over(p.g) + 0.114 * over(p.b)
            }
        }
        return out
    }
}
