/// What a JPEG's scans make libjpeg do, counted from the scan headers before anything is decoded.
///
/// A file's bytes do not bound its decoding time: a progressive scan of a whole component can be
/// a few dozen bytes of end-of-band runs, yet libjpeg visits every block of the component in it,
/// and a refinement scan looks at every coefficient of its band in each block for a correction
/// bit. A few hundred such scans make a 300 KB file cost the decoder a hundred times what the
/// picture does. Real encoders write about ten scans, each coefficient band and bit at most once.
///
/// The cost is counted in block visits, weighted as libjpeg-turbo spends instructions on them
/// (callgrind, `djpeg -scale 1/4`): a visit of a DC or first AC scan is one unit (about 110
/// instructions, an end-of-band run included), a refinement scan's visit 1 + band width / 14
/// units (about 590 for the band 1–63), and block smoothing, which libjpeg runs over every block
/// when a progressive file leaves low coefficients coarse, 5 units per block. A file is refused
/// past ``maximumUnitsPerBlock`` units per block of the picture: libjpeg-turbo's progressive
/// script (cjpeg, Pillow, libvips) comes to 10.7 (4:4:4), 12.8 (4:2:0) and 15.0 (grey), mozjpeg's
/// optimised scans 4–6, a baseline file 1.
struct JPEGScanCost: Equatable {
    /// The scans in the file (up to its EOI).
    var scans = 0
    /// 8×8 blocks of the picture, all components.
    var blocks = 0
    /// Weighted block visits of all scans, smoothing included.
    var units = 0.0

    /// The most units per block a file may cost.
    static let maximumUnitsPerBlock = 18.0
    /// A refinement scan's visit of a block: one unit, and one per this many coefficients of its band.
    static let refinementCoefficientsPerUnit = 14.0
    /// Block smoothing's cost per block.
    static let smoothingUnits = 5.0

    var unitsPerBlock: Double { blocks > 0 ? units / Double(blocks) : 0 }

    /// Refuses a file whose scans cost more than ``maximumUnitsPerBlock`` per block.
    /// - Throws: ``PhotoError/tooCostlyToDecode(_:detail:)`` with the counts.
    static func check(_ source: JPEGSource) throws(PhotoError) {
        guard needsWalk(source.header), let cost = JPEGScanCost(JPEGByteWindow(source)),
              cost.unitsPerBlock > maximumUnitsPerBlock else { return }
        let times = Int(cost.unitsPerBlock.rounded())
        throw .tooCostlyToDecode(.jpeg, detail: "its \(cost.scans) scans would make the decoder go over its "
            + "\(cost.blocks) blocks about \(times) times, where the files cameras and editors write need at most "
            + "\(Int(maximumUnitsPerBlock))")
    }

    /// Whether the file may hold more than one scan: a progressive frame, or a first scan without
    /// every component (a sequential frame whose first scan holds them all is one scan: libjpeg
    /// refuses a second). `false` when `header` has no frame and scan to tell (libjpeg decides).
    static func needsWalk(_ header: [UInt8]) -> Bool {
        var components = 0, progressive = false
        guard let end = try? JPEGMarkerWalk.walk(header, mode: .tolerant, visit: { segment in
            if segment.isFrameHeader, components == 0, segment.body.count >= 6 {
                components = Int(header[segment.body.lowerBound + 5])
                progressive = [0xC2, 0xC6, 0xCA, 0xCE].contains(segment.marker)
            }
        }), case .scan(let scan) = end, components > 0, !scan.body.isEmpty else { return false }
        return progressive || Int(header[scan.body.lowerBound]) < components
    }

    private struct Component {
        var id: UInt8
        var horizontal: Int, vertical: Int
        var blocksWide = 0, blocksHigh = 0
        /// The successive-approximation bit each coefficient is known to (-1: not yet coded), as libjpeg tracks it.
        var bits = [Int](repeating: -1, count: 64)
        var blocks: Int { blocksWide * blocksHigh }
    }

    /// The cost of every scan up to EOI (or where the data ends); `nil` for a file whose segments
    /// cannot be followed, which libjpeg then refuses itself.
    init?(_ bytes: JPEGByteWindow) {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var components: [Component] = []
        var progressive = false
        var mcusWide = 0, mcusHigh = 0
        var offset = 2
        scanning: while offset + 1 < bytes.count {
            guard bytes[offset] == 0xFF else { return nil }
            let marker = bytes[offset + 1]
            switch marker {
            case 0xFF:
                offset += 1
                continue
            case 0xD9:
                break scanning
            case 0x01, 0xD0...0xD8:
                offset += 2
                continue
            default:
                break
            }
            guard offset + 3 < bytes.count else { break }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let body = offset + 4, end = offset + 2 + length
            guard length >= 2, end <= bytes.count else { break }
            switch marker {
            case 0xC0...0xCF where ![0xC4, 0xC8, 0xCC].contains(marker):
                guard components.isEmpty, length >= 8 else { return nil }
                let height = Int(bytes[body + 1]) << 8 | Int(bytes[body + 2])
                let width = Int(bytes[body + 3]) << 8 | Int(bytes[body + 4])
                let count = Int(bytes[body + 5])
                guard width > 0, height > 0, count > 0, length == 8 + 3 * count else { return nil }
                for index in 0..<count {
                    let sampling = bytes[body + 7 + 3 * index]
                    let component = Component(id: bytes[body + 6 + 3 * index], horizontal: Int(sampling >> 4), vertical: Int(sampling & 0x0F))
                    guard (1...4).contains(component.horizontal), (1...4).contains(component.vertical) else { return nil }
                    components.append(component)
                }
                let maxH = components.map(\.horizontal).max()!, maxV = components.map(\.vertical).max()!
                for index in components.indices {
                    let c = components[index]
                    components[index].blocksWide = ((width * c.horizontal + maxH - 1) / maxH + 7) / 8
                    components[index].blocksHigh = ((height * c.vertical + maxV - 1) / maxV + 7) / 8
                }
                mcusWide = (width + 8 * maxH - 1) / (8 * maxH)
                mcusHigh = (height + 8 * maxV - 1) / (8 * maxV)
                progressive = [0xC2, 0xC6, 0xCA, 0xCE].contains(marker)
                blocks = components.reduce(0) { $0 + $1.blocks }
            case 0xDA:
                guard !components.isEmpty, length >= 6 else { return nil }
                let count = Int(bytes[body])
                guard count >= 1, length == 6 + 2 * count else { return nil }
                var members: [Int] = []
                for index in 0..<count {
                    guard let member = components.firstIndex(where: { $0.id == bytes[body + 1 + 2 * index] }) else { return nil }
                    members.append(member)
                }
                let parameters = body + 1 + 2 * count
                let start = Int(bytes[parameters]), stop = Int(bytes[parameters + 1])
                let high = Int(bytes[parameters + 2] >> 4), low = Int(bytes[parameters + 2] & 0x0F)
                // A spectrum starting past the last coefficient is where libjpeg stops with an
                // error: what it decodes is the scans before this one.
                guard !progressive || start <= 63 else { break scanning }
                let spectrum = progressive ? start...max(start, min(stop, 63)) : 0...63
                let visited = count == 1 ? components[members[0]].blocks
                    : mcusWide * mcusHigh * members.reduce(0) { $0 + components[$1].horizontal * components[$1].vertical }
                let refinement = progressive && start > 0 && high > 0
                units += Double(visited) * (refinement ? 1 + Double(spectrum.count) / Self.refinementCoefficientsPerUnit : 1)
                for member in members {
                    for k in spectrum { components[member].bits[k] = progressive ? low : 0 }
                }
                scans += 1
                guard let next = bytes.nextMarker(from: end) else { break scanning }
                offset = next
                continue
            default:
                break
            }
            offset = end
        }
        guard !components.isEmpty else { return nil }
        // libjpeg smooths blocks when the DC is known but a low AC coefficient is still coarse.
        if progressive, components.contains(where: { $0.bits[0] >= 0 && $0.bits[1...9].contains { $0 != 0 } }) {
            units += Self.smoothingUnits * Double(blocks)
        }
    }
}
