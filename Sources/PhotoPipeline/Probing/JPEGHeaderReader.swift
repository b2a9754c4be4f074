/// Reads a JPEG's segments up to the first scan (through ``JPEGMarkerWalk``, tolerantly, as
/// libjpeg does): frame size, EXIF, ICC profile.
enum JPEGHeaderReader {
    static func read(_ bytes: [UInt8]) throws(PhotoError) -> ImageInfo {
        var size: PixelSize?
        var progressive = false
        var components = 0
        var exif: ExifMetadata?
        var iccChunks: [Int: ArraySlice<UInt8>] = [:]
        var iccCount = 0
        _ = try JPEGMarkerWalk.walk(bytes, mode: .tolerant) { (segment) throws(PhotoError) in
            let body = segment.body.lowerBound
            switch segment.marker {
            case _ where segment.isFrameHeader:
                let frame = try segment.frame(in: bytes)
                if size == nil {
                    (size, components) = (frame.size, frame.components)
                    progressive = [0xC2, 0xC6, 0xCA, 0xCE].contains(segment.marker)
                }
            case 0xE1 where exif == nil && segment.starts(with: "Exif\0\0", in: bytes):
                exif = ExifReader.read(tiff: bytes, base: body + 6, count: segment.body.count - 6)
            case 0xE2 where segment.starts(with: "ICC_PROFILE\0", in: bytes) && segment.body.count >= 14:
                let sequence = Int(bytes[body + 12])
                iccCount = Int(bytes[body + 13])
                if iccChunks[sequence] == nil { iccChunks[sequence] = bytes[(body + 14)..<segment.body.upperBound] }
            default:
                break
            }
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
