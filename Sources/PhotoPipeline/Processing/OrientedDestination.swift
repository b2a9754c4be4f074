/// Where each pixel of an image in stored orientation lands in an upright buffer: the one EXIF
/// orientation mapping, used by ``PixelBuffer/oriented(_:)`` and by the JPEG decoder and resizer,
/// which write upright pixels directly instead of making a rotated copy (for a 2048 × 1536 output
/// that copy was 9 MB more at the peak and one more pass over the pixels).
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
        // Upright (u, v) of stored (x, y) = (a1·x + b1·y + c1, a2·x + b2·y + c2), per EXIF orientation.
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

    /// Where stored row `y` from column `x` on lies, when it lies in one run (upright images):
    /// a writer can put the pixels there itself instead of going through ``write(row:y:x:count:)``.
    @inline(__always)
    func contiguousRow(y: Int, x: Int) -> UnsafeMutablePointer<UInt8>? {
        orientation == .up ? base + (origin + x * stepX + y * stepY) * channels : nil
    }

    /// Writes `count` pixels of stored row `y`, starting at stored column `x` (tightly packed in `row`).
    @inline(__always)
    func write(row: UnsafePointer<UInt8>, y: Int, x: Int, count: Int) {
        let ch = channels
        if let run = contiguousRow(y: y, x: x) {
            run.update(from: row, count: count * ch)
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
