internal import CHEIF

/// The codec of a coded HEIF image item, called directly: libde265 for `hvc1` (HEIC), dav1d for
/// `av01` (AVIF). Both are loaded on first use, like libheif.
enum HEIFTileCodec: String {
    case hevc = "hvc1"
    case av1 = "av01"

    /// A decoded picture, valid inside ``decode(_:threads:maxPixels:_:)``'s body.
    struct Picture {
        let planes: [UnsafePointer<UInt8>]
        let strides: [Int]
        let width: Int
        let height: Int
        /// 8-bit samples, chroma at half width and height: the only layout the planar path takes.
        let isEightBit420: Bool
        /// From the bitstream (VUI or sequence header); 2 = unspecified.
        let matrix: Int
        let fullRange: Bool
        /// Whether libheif 1.15 knows the bitstream's primaries, transfer and matrix codes: with
        /// strict decoding it refuses the picture otherwise ("Unknown NCLX matrix coefficients"),
        /// even when the item's own `colr` box would replace them. Found by the `prepare` fuzzer.
        let coloursKnownToLibheif: Bool

        static let knownPrimaries: Set<Int> = [1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 22]
        static let knownTransfers: Set<Int> = Set(1...18).subtracting([3])
        static let knownMatrices: Set<Int> = Set(0...14).subtracting([3])

        static func known(primaries: Int32, transfer: Int32, matrix: Int32) -> Bool {
            knownPrimaries.contains(Int(primaries)) && knownTransfers.contains(Int(transfer)) && knownMatrices.contains(Int(matrix))
        }

        /// Either codec's picture; nil without three planes (monochrome).
        init?(_ picture: pj_coded_picture) {
            guard let y = picture.planes.0, let cb = picture.planes.1, let cr = picture.planes.2 else { return nil }
            planes = [y, cb, cr]
            strides = [picture.strides.0, picture.strides.1, picture.strides.2]
            width = Int(picture.width)
            height = Int(picture.height)
            isEightBit420 = picture.chroma_format == 1 && picture.bits_per_sample == 8
            matrix = Int(picture.matrix_coefficients)
            fullRange = picture.full_range != 0
            coloursKnownToLibheif = Self.known(primaries: picture.colour_primaries, transfer: picture.transfer_characteristics,
                                               matrix: picture.matrix_coefficients)
        }
    }

    var isAvailable: Bool { self == .hevc ? pj_hevc_load() != 0 : pj_av1_load() != 0 }

    /// What the codec is fed for `item`: its configuration (`hvcC` parameter sets, `av1C` OBUs),
    /// then its data. HEVC NAL units are rewritten with 4-byte lengths.
    func stream(_ container: HEIFContainer, _ item: UInt32) -> [UInt8]? {
        guard let data = container.data(of: item) else { return nil }
        switch self {
        case .hevc:
            var config: ArraySlice<UInt8>?
            for case .hvcC(let bytes) in container.properties[item] ?? [] { config = bytes }
            return config.flatMap { Self.nalUnits(config: $0, data: data) }
        case .av1:
            var config: ArraySlice<UInt8>?
            for case .av1C(let bytes) in container.properties[item] ?? [] { config = bytes }
            guard let config, config.count >= 4 else { return nil }
            return Array(config.dropFirst(4)) + data
        }
    }

    /// Decodes one item's stream; `threads` 0 decodes on the calling thread only. dav1d refuses a
    /// frame of more than `maxPixels` before allocating it (libde265 has no such limit; the caller
    /// checks the decoded size).
    func decode<T>(_ stream: [UInt8], threads: Int, maxPixels: Int, _ body: (Picture) -> T?) -> T? {
        var picture = pj_coded_picture()
        let status = stream.withUnsafeBufferPointer { bytes in
            switch self {
            case .hevc: pj_hevc_decode(bytes.baseAddress, bytes.count, Int32(threads), &picture)
            case .av1: pj_av1_decode(bytes.baseAddress, bytes.count, Int32(max(1, threads)), UInt32(clamping: maxPixels), &picture)
            }
        }
        guard status == 0 else { return nil }
        defer { if self == .hevc { pj_hevc_release(&picture) } else { pj_av1_release(&picture) } }
        return Picture(picture).flatMap(body)
    }

    /// The `hvcC` parameter sets, then the item's NAL units (`lengthSizeMinusOne` + 1 bytes of length
    /// each), all with 4-byte lengths.
    static func nalUnits(config: ArraySlice<UInt8>, data: [UInt8]) -> [UInt8]? {
        guard config.count >= 23 else { return nil }
        let c = config.startIndex
        let lengthSize = Int(config[c + 21] & 3) + 1
        var stream: [UInt8] = []
        stream.reserveCapacity(data.count + config.count + 64)
        func append(_ unit: ArraySlice<UInt8>) {
            let n = unit.count
            stream += [UInt8(n >> 24 & 255), UInt8(n >> 16 & 255), UInt8(n >> 8 & 255), UInt8(n & 255)]
            stream += unit
        }
        var at = c + 23
        for _ in 0..<Int(config[c + 22]) {
            guard at + 3 <= config.endIndex else { return nil }
            let units = Int(config[at + 1]) << 8 | Int(config[at + 2])
            at += 3
            for _ in 0..<units {
                guard at + 2 <= config.endIndex else { return nil }
                let length = Int(config[at]) << 8 | Int(config[at + 1])
                at += 2
                guard length <= config.endIndex - at else { return nil }
                append(config[at..<(at + length)])
                at += length
            }
        }
        var offset = 0
        while offset < data.count {
            guard data.count - offset >= lengthSize else { return nil }
            var length = 0
            for i in 0..<lengthSize { length = length << 8 | Int(data[offset + i]) }
            offset += lengthSize
            guard length <= data.count - offset else { return nil }
            append(data[offset..<(offset + length)])
            offset += length
        }
        return stream
    }
}
