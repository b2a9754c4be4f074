#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Conversions from 16-bit linear light (libpng's linear simplified formats) to 8-bit sRGB.
enum LinearLight {
    /// 16-bit linear → 8-bit sRGB, by the sRGB transfer function (IEC 61966-2-1).
    static let encode: [UInt8] = (0...65535).map { value in
        let linear = Double(value) / 65535
        let encoded = linear <= 0.003_130_8 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055
        return UInt8(min(255, max(0, (encoded * 255).rounded())))
    }

    /// 16-bit values libpng linearised with its sRGB power law (gamma 0.45455) → 8-bit, by the same law.
    static let encodeGamma22: [UInt8] = (0...65535).map { value in
        UInt8(min(255, max(0, (pow(Double(value) / 65535, 0.454_55) * 255).rounded())))
    }

    /// 16 → 8 bits by scale alone.
    static let scale: [UInt8] = (0...65535).map { UInt8((Int($0) * 255 + 32767) / 65535) }

    /// How libpng's 16-bit output becomes 8-bit sRGB.
    enum Transfer {
        /// True linear light: the sRGB curve.
        case sRGB
        /// Linearised by libpng's 2.2 power law from sRGB-encoded values: the inverse law.
        case gamma22
        /// Left as the file had them (already sRGB-encoded): scaled only.
        case none
    }

    /// Converts libpng's 16-bit "linear" output, whose colour is premultiplied by alpha when there
    /// is alpha (alpha itself is linear coverage, so it scales straight to 8 bits).
    static func sRGB8(fromPremultiplied16 linear: [UInt16], channels: Int, transfer: Transfer) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: linear.count)
        let table = switch transfer {
        case .sRGB: encode
        case .gamma22: encodeGamma22
        case .none: scale
        }
        linear.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                table.withUnsafeBufferPointer { lut in
                    if channels == 4 {
                        for i in stride(from: 0, to: src.count, by: 4) {
                            let alpha = UInt32(src[i + 3])
                            for c in 0..<3 {
                                let straight = alpha == 0 ? 0 : min(65535, (UInt32(src[i + c]) * 65535 + alpha / 2) / alpha)
                                dst[i + c] = lut[Int(straight)]
                            }
                            dst[i + 3] = UInt8((alpha * 255 + 32767) / 65535)
                        }
                    } else {
                        for i in 0..<src.count { dst[i] = lut[Int(src[i])] }
                    }
                }
            }
        }
        return out
    }
}
