#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a prepared photo carries of a colour profile that passed ``ICCProfileCheck``: nothing when
/// it is sRGB (what a photo without one is taken to be), else its colour alone rebuilt as a compact
/// profile, else — when its colour cannot be said that way — the pixels are converted to sRGB.
///
/// A profile is a container: besides the colour (primaries and tone curves) it may hold any number
/// of other tags, text among them, and a header with dates, makers and models. None of that is
/// kept: the compact profile is written anew from the colorants, the white point, the adaptation
/// matrix and the tone curves alone (ICC.1:2022, 8.3 "display profiles", matrix/TRC), with a
/// description and copyright of our own and a header holding only what the colour needs. An
/// Apple Display P3 or Adobe RGB (1998) profile becomes about 500 bytes; any text, private tag or
/// padding riding in the original is gone. A profile whose colour lives in lookup tables (A2B0
/// and the like), or whose curves are too long to stay small, is not carried: the pipeline
/// converts the pixels from it to sRGB (``ColourConversion``) and writes none.
enum ICCColourProfile: Equatable {
    /// sRGB itself: nothing to carry.
    case sRGB
    /// The colour, compactly: carry these bytes instead of the original.
    case compact([UInt8])
    /// Colour this profile alone can say (lookup tables, long curves): convert the pixels to sRGB.
    case convert(reason: String)

    /// The largest compact profile carried; a larger one (curves of thousands of points each) is
    /// converted instead, so no copy of a photo carries more than a few KB of profile.
    static let maximumCompactBytes = 4096
    /// Points of one sampled tone curve kept as they are.
    static let maximumCurvePoints = 1024

    /// What to do with `profile`, which ``ICCProfileCheck`` accepted for a grey (`GRAY`) or
    /// colour (`RGB `) photo.
    static func examine(_ profile: [UInt8]) -> ICCColourProfile {
        guard let parsed = ParsedProfile(profile) else {
            return .convert(reason: "its tag table does not fit in it")
        }
        if let lookup = parsed.tags.keys.first(where: { lookupTables.contains($0) }) {
            return .convert(reason: "its colour is in lookup tables ('\(lookup)')")
        }
        guard parsed.connectionSpace == "XYZ " else {
            return .convert(reason: "it connects through \(parsed.connectionSpace == "Lab " ? "Lab" : "an unknown space"), not XYZ")
        }
        let grey = parsed.colourSpace == "GRAY"
        let curveTags = grey ? ["kTRC"] : ["rTRC", "gTRC", "bTRC"]
        var curves: [ToneCurve] = []
        for tag in curveTags {
            guard let data = parsed.tags[tag], let curve = ToneCurve(data) else {
                return .convert(reason: "its '\(tag)' tone curve is missing or not one ICC defines")
            }
            guard curve.points.count <= maximumCurvePoints else {
                return .convert(reason: "its '\(tag)' tone curve has \(curve.points.count) points")
            }
            curves.append(curve)
        }
        var colorants: [[Double]] = []
        if !grey {
            for tag in ["rXYZ", "gXYZ", "bXYZ"] {
                guard let data = parsed.tags[tag], let xyz = Self.xyz(data) else {
                    return .convert(reason: "its '\(tag)' colorant is missing")
                }
                colorants.append(xyz)
            }
        }
        if curves.allSatisfy(\.isSRGB) && (grey || zip(colorants, Self.sRGBColorants).allSatisfy { zip($0, $1).allSatisfy { abs($0 - $1) < 0.002 } }) {
            return .sRGB
        }
        let compact = CompactProfileWriter(header: parsed.bytes, grey: grey, whitePoint: parsed.tags["wtpt"].flatMap(Self.xyzData),
                                           adaptation: parsed.tags["chad"].flatMap(Self.adaptationData),
                                           colorants: grey ? [] : ["rXYZ", "gXYZ", "bXYZ"].map { Self.xyzData(parsed.tags[$0]!)! },
                                           curves: zip(curveTags, curves).map { ($0, $1.data) }).bytes
        guard compact.count <= maximumCompactBytes else {
            return .convert(reason: "even its colour alone takes \(ByteFormat.string(compact.count))")
        }
        return .compact(compact)
    }

    /// Tags that describe colour with lookup tables (ICC.1:2022, 9.2): a CMM prefers them to the
    /// matrix and curves, so a profile holding one cannot be reduced to those.
    static let lookupTables: Set<String> = ["A2B0", "A2B1", "A2B2", "A2B3", "B2A0", "B2A1", "B2A2", "B2A3",
                                            "D2B0", "D2B1", "D2B2", "D2B3", "B2D0", "B2D1", "B2D2", "B2D3"]

    /// sRGB's red, green and blue colorants adapted to D50, as every sRGB profile holds them.
    static let sRGBColorants: [[Double]] = [[0.4361, 0.2225, 0.0139], [0.3851, 0.7169, 0.0971], [0.1431, 0.0606, 0.7141]]

    /// An XYZType tag's one value.
    static func xyz(_ data: ArraySlice<UInt8>) -> [Double]? {
        guard let value = xyzData(data) else { return nil }
        return (0..<3).map { Double(Int32(bitPattern: ICCBytes.uint32(value, at: value.startIndex + 8 + 4 * $0))) / 65536 }
    }

    /// An XYZType tag of one value, as its 20 bytes.
    static func xyzData(_ data: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard data.count >= 20, data.prefix(4).elementsEqual("XYZ ".utf8) else { return nil }
        return data.prefix(20)
    }

    /// A chromatic adaptation tag (s15Fixed16ArrayType of nine values), as its 44 bytes.
    static func adaptationData(_ data: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard data.count >= 44, data.prefix(4).elementsEqual("sf32".utf8) else { return nil }
        return data.prefix(44)
    }
}

/// Big-endian reads for ICC data.
enum ICCBytes {
    static func uint32(_ bytes: ArraySlice<UInt8>, at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    static func uint16(_ bytes: ArraySlice<UInt8>, at offset: Int) -> UInt16 {
        UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }
}

/// A profile's header fields and tags, every tag within the profile.
private struct ParsedProfile {
    let bytes: [UInt8]
    let colourSpace: String
    let connectionSpace: String
    var tags: [String: ArraySlice<UInt8>] = [:]

    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 132 else { return nil }
        self.bytes = bytes
        colourSpace = String(decoding: bytes[16..<20], as: UTF8.self)
        connectionSpace = String(decoding: bytes[20..<24], as: UTF8.self)
        let slice = bytes[...]
        let count = Int(ICCBytes.uint32(slice, at: 128))
        guard count <= 200, 132 + 12 * count <= bytes.count else { return nil }
        for index in 0..<count {
            let entry = 132 + 12 * index
            let signature = String(decoding: bytes[entry..<(entry + 4)], as: UTF8.self)
            let offset = Int(ICCBytes.uint32(slice, at: entry + 4)), size = Int(ICCBytes.uint32(slice, at: entry + 8))
            guard offset >= 128, size >= 8, offset <= bytes.count, size <= bytes.count - offset else { return nil }
            tags[signature] = bytes[offset..<(offset + size)]
        }
    }
}

/// A tone curve tag: `curv` (identity, a gamma, or sampled points) or `para` (one of ICC's five
/// parametric functions).
struct ToneCurve {
    /// The tag's bytes as they go into a compact profile (header and values, no padding).
    let data: [UInt8]
    /// A sampled curve's points (empty for a gamma or a function).
    let points: [UInt16]
    private let function: (Double) -> Double

    init?(_ tag: ArraySlice<UInt8>) {
        guard tag.count >= 12 else { return nil }
        let start = tag.startIndex
        switch String(decoding: tag.prefix(4), as: UTF8.self) {
        case "curv":
            let count = Int(ICCBytes.uint32(tag, at: start + 8))
            guard count <= (tag.count - 12) / 2 else { return nil }
            data = Array(tag.prefix(12 + 2 * count))
            switch count {
            case 0:
                points = []
                function = { $0 }
            case 1:
                let gamma = Double(ICCBytes.uint16(tag, at: start + 12)) / 256
                points = []
                function = { pow($0, gamma) }
            default:
                let values = (0..<count).map { ICCBytes.uint16(tag, at: start + 12 + 2 * $0) }
                points = values
                function = { x in
                    let position = min(max(x, 0), 1) * Double(values.count - 1)
                    let low = Int(position), high = min(low + 1, values.count - 1)
                    let fraction = position - Double(low)
                    return (Double(values[low]) * (1 - fraction) + Double(values[high]) * fraction) / 65535
                }
            }
        case "para":
            let type = Int(ICCBytes.uint16(tag, at: start + 8))
            let counts = [1, 3, 4, 5, 7]
            guard type < counts.count, tag.count >= 12 + 4 * counts[type] else { return nil }
            let p = (0..<counts[type]).map { Double(Int32(bitPattern: ICCBytes.uint32(tag, at: start + 12 + 4 * $0))) / 65536 }
            data = Array(tag.prefix(12 + 4 * counts[type]))
            points = []
            function = { x in
                let g = p[0]
                switch type {
                case 0: return pow(x, g)
                case 1: return x >= -p[2] / p[1] ? pow(p[1] * x + p[2], g) : 0
                case 2: return x >= -p[2] / p[1] ? pow(p[1] * x + p[2], g) + p[3] : p[3]
                case 3: return x >= p[4] ? pow(p[1] * x + p[2], g) : p[3] * x
                default: return x >= p[4] ? pow(p[1] * x + p[2], g) + p[5] : p[3] * x + p[6]
                }
            }
        default:
            return nil
        }
    }

    /// Whether the curve is sRGB's within one 8-bit level everywhere (a 2.2 gamma is not).
    var isSRGB: Bool {
        (0...255).allSatisfy { level in
            let x = Double(level) / 255
            let srgb = x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4)
            let value = function(x)
            return value.isFinite && abs(value - srgb) * 255 <= 0.5
        }
    }
}

/// Writes a matrix/TRC (or grey TRC) display profile from colour tags alone.
private struct CompactProfileWriter {
    let bytes: [UInt8]

    init(header original: [UInt8], grey: Bool, whitePoint: ArraySlice<UInt8>?, adaptation: ArraySlice<UInt8>?,
         colorants: [ArraySlice<UInt8>], curves: [(String, [UInt8])]) {
        let version4 = original[8] >= 4
        var tags: [(String, [UInt8])] = [
            ("desc", Self.text(grey ? "Grey profile (colour tags only)" : "RGB profile (colour tags only)", version4: version4, description: true)),
            ("cprt", Self.text("No copyright, use freely", version4: version4, description: false)),
        ]
        // D50, the connection space's white, when the original has none.
        tags.append(("wtpt", whitePoint.map(Array.init) ?? [0x58, 0x59, 0x5A, 0x20, 0, 0, 0, 0, 0, 0, 0xF6, 0xD6, 0, 1, 0, 0, 0, 0, 0xD3, 0x2D]))
        if let adaptation { tags.append(("chad", Array(adaptation))) }
        for (signature, colorant) in zip(["rXYZ", "gXYZ", "bXYZ"], colorants) { tags.append((signature, Array(colorant))) }
        tags += curves

        // The tag table, then each distinct tag's data, 4-byte aligned; identical curves share one.
        var data: [UInt8] = []
        var table: [(String, Int, Int)] = []
        let dataStart = 128 + 4 + 12 * tags.count
        var placed: [[UInt8]: Int] = [:]
        for (signature, content) in tags {
            if let offset = placed[content] {
                table.append((signature, offset, content.count))
                continue
            }
            let offset = dataStart + data.count
            placed[content] = offset
            table.append((signature, offset, content.count))
            data += content
            while data.count % 4 != 0 { data.append(0) }
        }
        var header = [UInt8](repeating: 0, count: 128)
        header[8..<12] = original[8..<12]                          // version
        header[12..<16] = ArraySlice("mntr".utf8)                  // a display profile
        header[16..<24] = original[16..<24]                        // colour space, connection space (XYZ)
        header[36..<40] = ArraySlice("acsp".utf8)
        header[64..<68] = original[64..<68]                        // rendering intent
        header[68..<80] = [0, 0, 0xF6, 0xD6, 0, 1, 0, 0, 0, 0, 0xD3, 0x2D]   // D50, as every profile's illuminant
        var profile = header + Self.be32(tags.count)
        for (signature, offset, size) in table { profile += Array(signature.utf8) + Self.be32(offset) + Self.be32(size) }
        profile += data
        profile.replaceSubrange(0..<4, with: Self.be32(profile.count))
        bytes = profile
    }

    static func be32(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// ASCII text as the profile's version writes it: `mluc` (one en-US record) in version 4,
    /// `desc` (textDescriptionType) or `text` in version 2.
    static func text(_ string: String, version4: Bool, description: Bool) -> [UInt8] {
        let ascii = Array(string.utf8)
        if version4 {
            let utf16 = string.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
            return Array("mluc".utf8) + [0, 0, 0, 0] + be32(1) + be32(12) + Array("enUS".utf8) + be32(utf16.count) + be32(28) + utf16
        }
        if description {
            // ASCII count and text with its NUL, empty Unicode and ScriptCode parts (ICC.1:2001-04, 6.5.17).
            return Array("desc".utf8) + [0, 0, 0, 0] + be32(ascii.count + 1) + ascii + [0] + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0]
                + [UInt8](repeating: 0, count: 67)
        }
        return Array("text".utf8) + [0, 0, 0, 0] + ascii + [0]
    }
}
