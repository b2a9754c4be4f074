/// An opaque sRGB colour, used as the background alpha is flattened onto.
public struct RGBColor: Sendable, Hashable, Codable {
    public var red: UInt8, green: UInt8, blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        (self.red, self.green, self.blue) = (red, green, blue)
    }

    public static let white = RGBColor(red: 255, green: 255, blue: 255)
    public static let black = RGBColor(red: 0, green: 0, blue: 0)

    /// Parses "#RRGGBB", "RRGGBB", "white" or "black".
    public init?(parsing text: String) {
        switch text.lowercased() {
        case "white": self = .white
        case "black": self = .black
        default:
            let hex = text.hasPrefix("#") ? String(text.dropFirst()) : text
            guard hex.count == 6, let value = UInt32(hex, radix: 16) else { return nil }
            self.init(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
        }
    }
}

extension PixelBuffer {
    /// Whether every pixel is fully opaque (always true without an alpha channel).
    public var isOpaque: Bool {
        guard channels == 4 else { return true }
        return pixels.withUnsafeBufferPointer { p in
            var i = 3
            while i < p.count {
                if p[i] != 255 { return false }
                i += 4
            }
            return true
        }
    }

    /// RGB pixels: alpha composited over `background` (or simply dropped when every pixel is opaque).
    public func flattened(onto background: RGBColor) -> PixelBuffer {
        guard channels == 4 else { return self }
        let count = width * height
        var out = [UInt8](repeating: 0, count: count * 3)
        let bg = [UInt32(background.red), UInt32(background.green), UInt32(background.blue)]
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for i in 0..<count {
                    let a = UInt32(src[i * 4 + 3])
                    for c in 0..<3 {
                        dst[i * 3 + c] = UInt8((UInt32(src[i * 4 + c]) * a + bg[c] * (255 - a) + 127) / 255)
                    }
                }
            }
        }
        return PixelBuffer(width: width, height: height, channels: 3, pixels: out)
    }

    /// Three channels from gray (for encoders that only take colour).
    public func expandedToRGB() -> PixelBuffer {
        guard channels == 1 else { return self }
        var out = [UInt8](repeating: 0, count: pixels.count * 3)
        for (i, v) in pixels.enumerated() {
            out[i * 3] = v
            out[i * 3 + 1] = v
            out[i * 3 + 2] = v
        }
        return PixelBuffer(width: width, height: height, channels: 3, pixels: out)
    }
}
