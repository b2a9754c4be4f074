/// One marker segment of a JPEG: `FF <marker> <length> <body>`.
struct JPEGMarkerSegment {
    var marker: UInt8
    /// Where its `FF` is.
    var start: Int
    /// Its payload, after the two length bytes.
    var body: Range<Int>

    /// A start-of-frame marker (SOF0…SOF15 but DHT, JPG and DAC).
    var isFrameHeader: Bool { (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) }

    /// A frame header's size and component count.
    /// - Throws: corrupt, for a frame header too short to hold them.
    func frame(in bytes: [UInt8]) throws(PhotoError) -> (size: PixelSize, components: Int) {
        let b = body.lowerBound
        guard body.count >= 6 else { throw .corrupt(.jpeg, detail: "the frame header is too short") }
        return (PixelSize(width: Int(bytes[b + 3]) << 8 | Int(bytes[b + 4]), height: Int(bytes[b + 1]) << 8 | Int(bytes[b + 2])),
                Int(bytes[b + 5]))
    }

    /// Whether the payload begins with `prefix` (an application segment's identifier).
    func starts(with prefix: String, in bytes: [UInt8]) -> Bool { bytes[body].starts(with: Array(prefix.utf8)) }
}

/// The one reader of a JPEG's marker segments before its first scan, for the header probe,
/// metadata and the "already prepared" check (which used to walk the same markers a second way).
///
/// - `.tolerant` reads as libjpeg does: bytes between segments and fill bytes are skipped, and a
///   file that ends early just ends the walk (the decoder says whether the image is complete).
/// - `.strict` accepts only segments that follow one another exactly; anything else throws.
enum JPEGMarkerWalk {
    enum Mode { case tolerant, strict }

    /// How the walk ended.
    enum End {
        /// At the first start-of-scan segment.
        case scan(JPEGMarkerSegment)
        /// At an end-of-image marker, or where the data ran out, before any scan.
        case noScan
    }

    /// About the size of the smallest decodable JPEG: SOI, DQT, SOF, DHT, SOS, one MCU, EOI.
    static let smallestCompleteJPEG = 125

    /// Calls `visit` for each segment after SOI up to the first scan.
    /// - Throws: the visitor's errors; a corrupt or truncated ``PhotoError`` for what is not a
    ///   JPEG segment (in `.strict` mode also for skipped bytes and a file that ends early).
    static func walk(_ bytes: [UInt8], mode: Mode,
                     visit: (JPEGMarkerSegment) throws(PhotoError) -> Void = { _ in }) throws(PhotoError) -> End {
        var offset = 2
        var segments = 0
        while true {
            let segmentStart = offset
            // Anything up to the next marker (libjpeg tolerates "extraneous bytes"), then fill bytes.
            while offset < bytes.count, bytes[offset] != 0xFF { offset += 1 }
            if offset > segmentStart && (segments == 0 || mode == .strict) {
                throw .corrupt(.jpeg, detail: segments == 0 ? "the start-of-image marker is followed by data that is not a JPEG segment"
                                                            : "byte \(segmentStart) is not the start of a JPEG segment")
            }
            let markerStart = offset
            while offset < bytes.count, bytes[offset] == 0xFF { offset += 1 }
            if mode == .strict && offset - markerStart > 1 { throw .corrupt(.jpeg, detail: "fill bytes before the marker at \(markerStart)") }
            guard offset < bytes.count else { return try ran(out: mode) }
            let marker = bytes[offset]
            offset += 1
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) {
                if mode == .strict { throw .corrupt(.jpeg, detail: "a stand-alone marker 0x\(String(marker, radix: 16)) before the scan") }
                continue
            }
            if marker == 0xD9 { return try ran(out: mode) }
            guard marker >= 0xC0 && marker != 0xFF else {
                throw .corrupt(.jpeg, detail: "byte \(offset - 1) holds 0x\(String(marker, radix: 16)), which is not a JPEG marker")
            }
            guard offset + 2 <= bytes.count else { return try ran(out: mode) }
            let length = Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
            guard length >= 2 else {
                // A file shorter than the smallest complete JPEG (tables, frame header, scan) was cut
                // off; a longer one with a bad length field is damaged.
                if bytes.count < smallestCompleteJPEG { throw .truncated(.jpeg, detail: "the file is only \(bytes.count) bytes long") }
                throw .corrupt(.jpeg, detail: "a segment declares an impossible length of \(length) bytes")
            }
            let end = offset + length
            segments += 1
            guard end <= bytes.count else { return try ran(out: mode) }
            let segment = JPEGMarkerSegment(marker: marker, start: markerStart, body: (offset + 2)..<end)
            if marker == 0xDA { return .scan(segment) }
            try visit(segment)
            offset = end
        }
    }

    private static func ran(out mode: Mode) throws(PhotoError) -> End {
        if mode == .strict { throw .truncated(.jpeg, detail: "the file ends before its first scan") }
        return .noScan
    }
}
