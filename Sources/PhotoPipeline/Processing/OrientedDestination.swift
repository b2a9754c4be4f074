/// Where each pixel of an image in stored orientation lands in an upright buffer, so a decoder or
/// resizer can write upright pixels directly instead of making a second, rotated copy (for a
/// 2048 × 1536 output that copy is 9 MB more at the peak and one more pass over the pixels).
///
/// The upright index of stored pixel (x, y) is `origin + x · stepX + y · stepY` (in pixels).
struct OrientedDestination: @unchecked Sendable {
    let base: UnsafeMutablePointer<UInt8>
    let channels: Int
    let orientation: ExifOrientation
    private let origin: Int
    private let stepX: Int
    private let stepY: Int

    /// - Parameters:
    ///   - stored: the image's size as stored (before orientation).
    ///   - base: `stored.pixelCount * channels` bytes.
    init(stored: PixelSize, orientation: ExifOrientation, channels: Int, base: UnsafeMutablePointer<UInt8>) {
        self.base = base
        self.channels = channels
        self.orientation = orientation
        let (w, h) = (stored.width, stored.height)
        let uprightWidth = orientation.swapsDimensions ? h : w
        // Upright (u, v) = (a1·x + b1·y + c1, a2·x + b2·y + c2): the inverse of PixelBuffer.oriented's mapping.
        let (a1, b1, c1, a2, b2, c2): (Int, Int, Int, Int, Int, Int) = switch orientation {
        case .up: (1, 0, 0, 0, 1, 0)
        case .upMirrored: (-1, 0, w - 1, 0, 1, 0)
        case .down: (-1, 0, w - 1, 0, -1, h - 1)
        case .downMirrored: (1, 0, 0, 0, -1, h - 1)
        case .leftMirrored: (0, 1, 0, 1, 0, 0)
        case .right: (0, -1, h - 1, 1, 0, 0)
        case .rightMirrored: (0, -1, h - 1, -1, 0, w - 1)
        case .left: (0, 1, 0, -1, 0, w - 1)
        }
        stepX = a2 * uprightWidth + a1
        stepY = b2 * uprightWidth + b1
        origin = c2 * uprightWidth + c1
    }

    /// Writes `count` pixels of stored row `y`, starting at stored column `x` (tightly packed in `row`).
    @inline(__always)
    func write(row: UnsafePointer<UInt8>, y: Int, x: Int, count: Int) {
        let ch = channels
        if orientation == .up {
            (base + (origin + x * stepX + y * stepY) * ch).update(from: row, count: count * ch)
            return
        }
        var d = (origin + x * stepX + y * stepY) * ch
        let step = stepX * ch
        for i in 0..<count {
            for c in 0..<ch { base[d + c] = row[i * ch + c] }
            d += step
        }
    }
}
