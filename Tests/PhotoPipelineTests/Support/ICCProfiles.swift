/// Colour profiles written by hand for the tests: matrix/TRC display profiles (ICC.1 v2) with
/// chosen colorants and curves, extra tags, padding, or a lookup-table (A2B0) form of the same colour.
enum ICCProfiles {
    /// Display P3's colorants adapted to D50 (as Apple's profile holds them).
    static let displayP3: [[Double]] = [[0.5151, 0.2412, -0.0011], [0.2920, 0.6922, 0.0419], [0.1571, 0.0666, 0.7841]]
    static let sRGB: [[Double]] = [[0.4361, 0.2225, 0.0139], [0.3851, 0.7169, 0.0971], [0.1431, 0.0606, 0.7141]]
    /// sRGB's tone curve as a parametric curve of type 3.
    static let sRGBCurve: [Double] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]

    static func be32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
    static func s15(_ value: Double) -> [UInt8] { be32(Int((value * 65536).rounded())) }
    static func xyz(_ v: [Double]) -> [UInt8] { Array("XYZ ".utf8) + [0, 0, 0, 0] + v.flatMap(s15) }
    static func para(_ p: [Double]) -> [UInt8] { Array("para".utf8) + [0, 0, 0, 0, 0, 3, 0, 0] + p.flatMap(s15) }
    static func curv(gamma: Double) -> [UInt8] { Array("curv".utf8) + [0, 0, 0, 0] + be32(1) + [UInt8(gamma), UInt8((gamma * 256).truncatingRemainder(dividingBy: 256))] }
    static func text(_ string: String) -> [UInt8] { Array("text".utf8) + [0, 0, 0, 0] + Array(string.utf8) + [0] }
    static func desc(_ string: String) -> [UInt8] {
        Array("desc".utf8) + [0, 0, 0, 0] + be32(string.utf8.count + 1) + Array(string.utf8) + [0] + [UInt8](repeating: 0, count: 78)
    }

    /// A v2 display profile: `tags` in order after a header of `space` (maker, model, date filled in).
    static func profile(space: String = "RGB ", tags: [(String, [UInt8])]) -> [UInt8] {
        var header = [UInt8](repeating: 0, count: 128)
        header[4..<8] = ArraySlice("lcms".utf8)
        header[8] = 2; header[9] = 0x10
        header[12..<16] = ArraySlice("mntr".utf8)
        header[16..<20] = ArraySlice(space.utf8)
        header[20..<24] = ArraySlice("XYZ ".utf8)
        header[24..<36] = [0x07, 0xE9, 0, 6, 0, 15, 0, 14, 0, 30, 0, 0]   // 2025-06-15 14:30
        header[36..<40] = ArraySlice("acsp".utf8)
        header[48..<56] = ArraySlice("ACMEcam1".utf8)
        header[68..<80] = [0, 0, 0xF6, 0xD6, 0, 1, 0, 0, 0, 0, 0xD3, 0x2D]
        var table = be32(tags.count)
        var data: [UInt8] = []
        let start = 128 + 4 + 12 * tags.count
        for (signature, content) in tags {
            table += Array(signature.utf8) + be32(start + data.count) + be32(content.count)
            data += content
            while data.count % 4 != 0 { data.append(0) }
        }
        var bytes = header + table + data
        bytes.replaceSubrange(0..<4, with: be32(bytes.count))
        return bytes
    }

    /// Matrix/TRC RGB with `colorants` and one parametric curve for all three channels, plus `extra` tags.
    static func rgb(_ colorants: [[Double]] = displayP3, curve: [Double] = sRGBCurve, extra: [(String, [UInt8])] = []) -> [UInt8] {
        profile(tags: [("desc", desc("Display P3")), ("cprt", text("Copyright Apple Inc., 2017")), ("wtpt", xyz([0.9642, 1, 0.8249])),
                       ("rXYZ", xyz(colorants[0])), ("gXYZ", xyz(colorants[1])), ("bXYZ", xyz(colorants[2])),
                       ("rTRC", para(curve)), ("gTRC", para(curve)), ("bTRC", para(curve))] + extra)
    }

    /// Grey with a gamma curve.
    static func grey(gamma: Double = 1.8) -> [UInt8] {
        profile(space: "GRAY", tags: [("desc", desc("Grey 1.8")), ("wtpt", xyz([0.9642, 1, 0.8249])), ("kTRC", curv(gamma: gamma))])
    }

    /// The same colour as ``rgb(_:curve:extra:)`` with `colorants`, as a lut16 A2B0 (the curve
    /// sampled into the input tables, a 2×2×2 grid of the colorants' sums, which trilinear
    /// interpolation makes exactly the matrix) beside the matrix/TRC tags.
    static func lookupTable(_ colorants: [[Double]] = displayP3, curve: [Double] = sRGBCurve) -> [UInt8] {
        func linear(_ x: Double) -> Double {
            x >= curve[4] ? pow(curve[1] * x + curve[2], curve[0]) : curve[3] * x
        }
        var lut = Array("mft2".utf8) + [0, 0, 0, 0] + [3, 3, 2, 0]
        for row in 0..<3 { for column in 0..<3 { lut += s15(row == column ? 1 : 0) } }
        let entries = 256
        lut += [UInt8(entries >> 8), UInt8(entries & 0xFF), 0, 2]
        for _ in 0..<3 {
            for i in 0..<entries {
                let value = Int((linear(Double(i) / Double(entries - 1)) * 65535).rounded())
                lut += [UInt8(value >> 8), UInt8(value & 0xFF)]
            }
        }
        // Grid points in order r (slowest), g, b; PCS XYZ in lut16 is u1Fixed15 (1.0 = 32768).
        for r in 0..<2 { for g in 0..<2 { for b in 0..<2 {
            for axis in 0..<3 {
                let sum = Double(r) * colorants[0][axis] + Double(g) * colorants[1][axis] + Double(b) * colorants[2][axis]
                let value = min(65535, max(0, Int((sum * 32768).rounded())))
                lut += [UInt8(value >> 8), UInt8(value & 0xFF)]
            }
        } } }
        for _ in 0..<3 { lut += [0, 0, 0xFF, 0xFF] }
        return rgb(colorants, curve: curve, extra: [("A2B0", lut)])
    }
}

#if canImport(Glibc)
import Glibc
#endif
