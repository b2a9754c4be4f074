/// A width and height in pixels.
public struct PixelSize: Sendable, Hashable, Codable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Width and height exchanged.
    public var transposed: PixelSize { PixelSize(width: height, height: width) }

    /// The longer of the two sides.
    public var longEdge: Int { max(width, height) }

    /// Width × height; `Int.max` when that does not fit (a header may declare two 32-bit sides).
    public var pixelCount: Int {
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? .max : product
    }

    public var description: String { "\(width)×\(height)" }

    /// The largest size with the same aspect ratio whose long edge is at most `maxLongEdge`.
    /// Never upscales; each side stays at least 1 px and within 1 px of the exact aspect ratio.
    public func fitting(longEdge maxLongEdge: Int) -> PixelSize {
        guard longEdge > maxLongEdge, maxLongEdge > 0 else { return self }
        let scale = Double(maxLongEdge) / Double(longEdge)
        if width >= height {
            return PixelSize(width: maxLongEdge, height: max(1, Int((Double(height) * scale).rounded())))
        }
        return PixelSize(width: max(1, Int((Double(width) * scale).rounded())), height: maxLongEdge)
    }
}
