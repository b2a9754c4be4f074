extension PixelBuffer {
    /// The pixels turned upright according to `orientation` (all eight EXIF cases).
    ///
    /// Each output pixel (x, y) reads the stored pixel at `origin + x * stepX + y * stepY`,
    /// so every orientation is one copy loop with different strides.
    public func oriented(_ orientation: ExifOrientation) -> PixelBuffer {
        guard orientation != .up else { return self }
        let (w, h) = (width, height)
        // Stored (column, row) of upright (x, y), as (column, row) = a·x + b·y + c per axis.
        let (ax, bx, cx, ay, by, cy): (Int, Int, Int, Int, Int, Int) = switch orientation {
        case .up: (1, 0, 0, 0, 1, 0)
        case .upMirrored: (-1, 0, w - 1, 0, 1, 0)
        case .down: (-1, 0, w - 1, 0, -1, h - 1)
        case .downMirrored: (1, 0, 0, 0, -1, h - 1)
        case .leftMirrored: (0, 1, 0, 1, 0, 0)
        case .right: (0, 1, 0, -1, 0, h - 1)
        case .rightMirrored: (0, -1, w - 1, -1, 0, h - 1)
        case .left: (0, -1, w - 1, 1, 0, 0)
        }
        let outSize = orientation.swapsDimensions ? PixelSize(width: h, height: w) : PixelSize(width: w, height: h)
        let ch = channels
        let stepX = (ay * w + ax) * ch, stepY = (by * w + bx) * ch, origin = (cy * w + cx) * ch
        var out = [UInt8](repeating: 0, count: pixels.count)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                var d = 0
                for y in 0..<outSize.height {
                    var s = origin + y * stepY
                    for _ in 0..<outSize.width {
                        for c in 0..<ch { dst[d + c] = src[s + c] }
                        d += ch
                        s += stepX
                    }
                }
            }
        }
        return PixelBuffer(width: outSize.width, height: outSize.height, channels: ch, pixels: out)
    }
}
