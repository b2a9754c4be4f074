/// A JPEG's metadata replaced by what ``PhotoPipeline`` writes itself, its image data kept byte
/// for byte: the start-of-image marker, libjpeg's own JFIF header (version 1.01, no density, no
/// thumbnail), the colour profile to carry (if any) as APP2 segments, then every table, frame and
/// scan segment of the file as it is. Whatever else rode in the file's application or comment
/// segments (a JFIF thumbnail of another picture, its density fields, a profile's extra tags) is
/// not in the result.
enum JPEGMetadataRewrite {
    /// The JFIF APP0 segment libjpeg (and so TurboJPEG) writes: "JFIF\0", 1.01, aspect ratio 1:1, no thumbnail.
    static let jfif: [UInt8] = [0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]

    /// `bytes` with its segments before the first scan reduced to tables and the frame (application
    /// and comment segments left out), after SOI, ``jfif`` and `profile`; `nil` when the segments
    /// cannot be walked strictly.
    static func rewrite(_ bytes: [UInt8], carrying profile: [UInt8]?) -> [UInt8]? {
        var kept: [Range<Int>] = []
        let end: JPEGMarkerWalk.End
        do throws(PhotoError) {
            end = try JPEGMarkerWalk.walk(bytes, mode: .strict) { segment in
                guard !(0xE0...0xEF).contains(segment.marker), segment.marker != 0xFE else { return }
                kept.append(segment.start..<segment.body.upperBound)
            }
        } catch {
            return nil
        }
        guard case .scan(let scan) = end else { return nil }
        var output = [0xFF, 0xD8] + jfif
        if let profile, !profile.isEmpty { output = JPEGEncoder.embedding(profile, in: output) }
        output.reserveCapacity(output.count + bytes.count)
        for range in kept { output += bytes[range] }
        output += bytes[scan.start...]
        return output
    }
}
