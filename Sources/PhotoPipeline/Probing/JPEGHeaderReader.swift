/// Walks a JPEG's marker segments up to the first scan: frame size, EXIF, ICC profile, Adobe transform.
enum JPEGHeaderReader {
    /// About the size of the smallest decodable JPEG: SOI, DQT, SOF, DHT, SOS, one MCU, EOI.
    static let smallestCompleteJPEG = 125

    static func read(_ bytes: [UInt8]) throws(PhotoError) -> ImageInfo {
        var size: PixelSize?
        var progressive = false
        var components = 0
        var exif: ExifMetadata?
        var iccChunks: [Int: ArraySlice<UInt8>] = [:]
        var iccCount = 0
        var offset = 2
        var segments = 0
        scan: while true {
            // Skip anything up to the next marker (libjpeg tolerates "extraneous bytes", so do we).
            let garbageStart = offset
            while offset < bytes.count, bytes[offset] != 0xFF { offset += 1 }
            if segments == 0 && offset > garbageStart {
                throw .corrupt(.jpeg, detail: "the start-of-image marker is followed by data that is not a JPEG segment")
            }
            while offset < bytes.count, bytes[offset] == 0xFF { offset += 1 }
            guard offset < bytes.count else { break scan }
            let marker = bytes[offset]
            offset += 1
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }
            if marker == 0xD9 { break scan }
            guard marker >= 0xC0 && marker != 0xFF else {
                throw .corrupt(.jpeg, detail: "byte \(offset - 1) holds 0x\(String(marker, radix: 16)), which is not a JPEG marker")
            }
            guard offset + 2 <= bytes.count else { break scan }
            let length = Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
            guard length >= 2 else {
                // A file shorter than the smallest complete JPEG (tables, frame header, scan) was cut
                // off; a longer one with a bad length field is damaged.
                if bytes.count < Self.smallestCompleteJPEG {
                    throw .truncated(.jpeg, detail: "the file is only \(bytes.count) bytes long")
                }
                throw .corrupt(.jpeg, detail: "a segment declares an impossible length of \(length) bytes")
            }
            let body = offset + 2
            let end = offset + length
            segments += 1
            guard end <= bytes.count else { break scan }
            switch marker {
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                guard length >= 8 else { throw .corrupt(.jpeg, detail: "the frame header is too short") }
                let height = Int(bytes[body + 1]) << 8 | Int(bytes[body + 2])
                let width = Int(bytes[body + 3]) << 8 | Int(bytes[body + 4])
                if size == nil {
                    size = PixelSize(width: width, height: height)
                    progressive = marker == 0xC2 || marker == 0xC6 || marker == 0xCA || marker == 0xCE
                    components = Int(bytes[body + 5])
                }
            case 0xE1 where exif == nil && bytes[body..<end].starts(with: Array("Exif\0\0".utf8)):
                exif = ExifReader.read(tiff: bytes, base: body + 6, count: end - body - 6)
            case 0xE2 where bytes[body..<end].starts(with: Array("ICC_PROFILE\0".utf8)) && end - body >= 14:
                let sequence = Int(bytes[body + 12])
                iccCount = Int(bytes[body + 13])
                if iccChunks[sequence] == nil { iccChunks[sequence] = bytes[(body + 14)..<end] }
            case 0xDA:
                break scan
            default:
                break
            }
            offset = end
        }
        guard let size else {
            throw .truncated(.jpeg, detail: "the file ends before the frame header that gives the picture's size")
        }
        var info = ImageInfo(type: .jpeg, storedSize: size, byteCount: bytes.count,
                             encodingSummary: [progressive ? "progressive" : "baseline",
                                               components == 1 ? "grayscale" : components == 4 ? "CMYK" : "colour"]
                                 .joined(separator: ", "))
        info.apply(exif)
        switch assembleICC(iccChunks, count: iccCount) {
        case .profile(let profile): info.carry(profile, grayscale: components == 1)
        case .oversize(let count):
            info.droppedICCProfile = ICCProfileDrop(byteCount: count, reason: ICCProfileCheck.oversize(count, limit: ICCProfileCheck.maximumBytes)!)
        case .none: break
        }
        return info
    }

    private enum AssembledICC { case none, profile([UInt8]), oversize(Int) }

    /// Joins ICC_PROFILE chunks 1…count (none if any is missing); one larger than
    /// ``ICCProfileCheck/maximumBytes`` is not joined at all.
    private static func assembleICC(_ chunks: [Int: ArraySlice<UInt8>], count: Int) -> AssembledICC {
        guard count > 0, (1...count).allSatisfy({ chunks[$0] != nil }) else { return .none }
        let total = (1...count).reduce(0) { $0 + chunks[$1]!.count }
        if total > ICCProfileCheck.maximumBytes { return .oversize(total) }
        let profile = (1...count).flatMap { Array(chunks[$0]!) }
        return profile.isEmpty ? .none : .profile(profile)
    }
}
