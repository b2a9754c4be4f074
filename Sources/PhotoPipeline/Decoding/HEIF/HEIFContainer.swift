/// The boxes of a HEIF file that say how its primary image is coded: item types and data (`iinf`,
/// `iloc`, `idat`), properties (`iprp`: `hvcC`, `av1C`, `ispe`, `irot`, `imir`, `clap`, `colr`, `pixi`) and
/// grid inputs (`iref` `dimg`). Read directly so that ``HEIFPlanarDecoder`` can hand coded tiles to
/// the codec itself; every field is optional and bounds-checked, since the file may be hostile.
/// See ISO/IEC 23008-12 (HEIF) and 14496-12 (ISOBMFF).
struct HEIFContainer {
    struct Extent {
        let offset: Int
        let length: Int
    }

    struct Item {
        var type = ""
        /// 0: offsets into the file; 1: into `idat`.
        var constructionMethod = 0
        var extents: [Extent] = []
    }

    enum Property {
        case hvcC(config: ArraySlice<UInt8>)
        case av1C(config: ArraySlice<UInt8>)
        case ispe(width: Int, height: Int)
        case irot(quarterTurns: Int)
        case imir(axis: Int)
        case clap
        case nclx(primaries: Int, matrix: Int, fullRange: Bool)
        case pixi(bits: [Int])
        case other(String)
    }

    let bytes: [UInt8]
    /// The items and their references (`pitm`, `iinf`, `iref`), as the cycle check reads them.
    let graph: HEIFItemGraph
    var items: [UInt32: Item] = [:]
    /// Each item's properties in association order (which is the order transforms apply in).
    var properties: [UInt32: [Property]] = [:]
    private var idat: Range<Int>?

    var primary: UInt32? { graph.primary }
    /// `dimg` inputs of each derived image (a grid's tiles, row by row).
    var inputs: [UInt32: [UInt32]] { graph.inputs }

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        graph = HEIFItemGraph(bytes)
        let file = ByteReader(bytes)
        typealias Box = HEIFItemGraph.Box
        guard let meta = HEIFItemGraph.boxes(file, from: 0, to: file.count).first(where: { $0.type == "meta" }) else { return }
        for (id, type) in graph.types { items[id, default: Item()].type = type }
        var ipco: [Box] = []
        var ipma: Box?
        for box in HEIFItemGraph.boxes(file, from: meta.content + 4, to: meta.end) {
            switch box.type {
            case "iloc": readLocations(file, box)
            case "idat": idat = box.content..<box.end
            case "iprp":
                for child in HEIFItemGraph.boxes(file, from: box.content, to: box.end) {
                    if child.type == "ipco" { ipco = HEIFItemGraph.boxes(file, from: child.content, to: child.end) }
                    if child.type == "ipma", ipma == nil { ipma = child }
                }
            default: break
            }
        }
        let parsed = ipco.map { Self.property(file, $0) }
        if let ipma { readAssociations(file, ipma, parsed) }
    }

    /// How many bytes ``data(of:)`` would give for the item (its extents' lengths).
    func dataLength(of id: UInt32) -> Int {
        items[id]?.extents.reduce(0) { $0 + $1.length } ?? 0
    }

    /// The item's data: its extents joined (nil when any lies outside the file or `idat`).
    func data(of id: UInt32) -> [UInt8]? {
        guard let item = items[id], !item.extents.isEmpty else { return nil }
        let base: Range<Int>
        switch item.constructionMethod {
        case 0: base = 0..<bytes.count
        case 1: guard let idat else { return nil }; base = idat
        default: return nil
        }
        var data: [UInt8] = []
        for extent in item.extents {
            // Extents may overlap, but together never hold more than the file does.
            guard extent.length > 0, extent.offset >= 0, extent.offset < base.count,
                  extent.length <= base.count - extent.offset, data.count + extent.length <= bytes.count else { return nil }
            let start = base.lowerBound + extent.offset
            data += bytes[start..<(start + extent.length)]
        }
        return data
    }

    // MARK: - Boxes

    private mutating func readLocations(_ file: ByteReader, _ box: HEIFItemGraph.Box) {
        guard let version = file.u8(box.content), version <= 2, let sizes = file.u16(box.content + 4) else { return }
        let offsetSize = Int(sizes >> 12), lengthSize = Int(sizes >> 8 & 15), baseSize = Int(sizes >> 4 & 15)
        let indexSize = version >= 1 ? Int(sizes & 15) : 0
        // Extents without a length ("the rest of the file") are left to libheif; with one, every
        // extent takes bytes of the box, so a hostile count cannot make the loops below run long.
        guard lengthSize > 0 else { return }
        var at = box.content + 6
        func read(_ size: Int) -> Int? {
            defer { at += size }
            switch size {
            case 0: return 0
            case 4: return file.u32(at).map(Int.init)
            case 8:
                guard let high = file.u32(at), let low = file.u32(at + 4), high < 1 << 20 else { return nil }
                return Int(high) << 32 | Int(low)
            default: return nil
            }
        }
        let count: Int
        if version < 2 {
            guard let value = file.u16(at) else { return }
            count = Int(value); at += 2
        } else {
            guard let value = file.u32(at) else { return }
            count = Int(value); at += 4
        }
        for _ in 0..<min(count, 1 << 16) where at < box.end {
            let id: UInt32?
            if version < 2 { id = file.u16(at).map(UInt32.init); at += 2 } else { id = file.u32(at); at += 4 }
            var method = 0
            if version >= 1 { method = Int((file.u16(at) ?? 0) & 15); at += 2 }
            at += 2 // data_reference_index
            guard let id, let base = read(baseSize), let extentCount = file.u16(at),
                  Int(extentCount) * (indexSize + offsetSize + lengthSize) <= box.end - at - 2 else { return }
            at += 2
            var extents: [Extent] = []
            for _ in 0..<Int(extentCount) {
                if indexSize > 0 { guard read(indexSize) != nil else { return } }
                guard let offset = read(offsetSize), let length = read(lengthSize), at <= box.end else { return }
                extents.append(Extent(offset: base + offset, length: length))
            }
            items[id, default: Item()].constructionMethod = method
            items[id, default: Item()].extents = extents
        }
    }

    private mutating func readAssociations(_ file: ByteReader, _ box: HEIFItemGraph.Box, _ parsed: [Property]) {
        guard let version = file.u8(box.content), let flags = file.u8(box.content + 3), let count = file.u32(box.content + 4) else { return }
        var at = box.content + 8
        for _ in 0..<min(Int(count), 1 << 16) where at < box.end {
            let id: UInt32?
            if version < 1 { id = file.u16(at).map(UInt32.init); at += 2 } else { id = file.u32(at); at += 4 }
            guard let id, let associations = file.u8(at) else { return }
            at += 1
            var list: [Property] = []
            for _ in 0..<Int(associations) {
                let index: Int
                if flags & 1 != 0 {
                    guard let value = file.u16(at) else { return }
                    index = Int(value & 0x7FFF); at += 2
                } else {
                    guard let value = file.u8(at) else { return }
                    index = Int(value & 0x7F); at += 1
                }
                if index > 0 && index <= parsed.count { list.append(parsed[index - 1]) }
            }
            properties[id] = list
        }
    }

    private static func property(_ file: ByteReader, _ box: HEIFItemGraph.Box) -> Property {
        let c = box.content
        switch box.type {
        case "hvcC":
            return .hvcC(config: file.slice(c, length: box.end - c) ?? [])
        case "av1C":
            return .av1C(config: file.slice(c, length: box.end - c) ?? [])
        case "ispe":
            guard let width = file.u32(c + 4), let height = file.u32(c + 8) else { return .other("ispe") }
            return .ispe(width: Int(width), height: Int(height))
        case "irot":
            return .irot(quarterTurns: Int((file.u8(c) ?? 0) & 3))
        case "imir":
            return .imir(axis: Int((file.u8(c) ?? 0) & 1))
        case "clap":
            return .clap
        case "colr":
            guard file.ascii(c, length: 4) == "nclx", let primaries = file.u16(c + 4), let matrix = file.u16(c + 8),
                  let range = file.u8(c + 10) else { return .other("colr") }
            return .nclx(primaries: Int(primaries), matrix: Int(matrix), fullRange: range & 0x80 != 0)
        case "pixi":
            guard let channels = file.u8(c + 4) else { return .other("pixi") }
            return .pixi(bits: (0..<Int(channels)).compactMap { file.u8(c + 5 + $0).map(Int.init) })
        default:
            return .other(box.type)
        }
    }
}
