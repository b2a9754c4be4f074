/// Decides what a file is from its first bytes.
///
/// Accepted types (JPEG, PNG, WebP) are recognised by their signatures; refused types are
/// recognised too, so the error can name them. Anything else is `nil` ("not an image").
public enum MediaSniffer {
    /// How many leading bytes ``sniff(_:)`` looks at, at most.
    public static let prefixLength = 512

    /// The media type of `bytes`, or `nil` when nothing is recognised.
    public static func sniff(_ bytes: some RandomAccessCollection<UInt8>) -> MediaType? {
        let head = Array(bytes.prefix(prefixLength))
        func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + signature.count && Array(head[offset..<offset + signature.count]) == signature
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if let isoType = isoBaseMediaType(head) { return isoType }
        if starts([0xFF, 0x0A]) || starts([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) { return .jxl }
        if starts(Array("BM".utf8)) { return .bmp }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if starts([0, 0, 1, 0]) || starts([0, 0, 2, 0]) { return .ico }
        if starts(Array("8BPS".utf8)) { return .psd }
        if starts(Array("%PDF-".utf8)) { return .pdf }
        if audioSignatures.contains(where: { starts($0) }) { return nil }
        return textType(head)
    }

    /// Audio containers whose signatures happen to be printable ASCII; they are not text.
    private static let audioSignatures: [[UInt8]] = ["ID3", "OggS", "fLaC", ".snd", ".RMF"].map { Array($0.utf8) }

    /// HEIC/HEIF/AVIF: an ISO base media file whose `ftyp` box names an image brand.
    private static func isoBaseMediaType(_ head: [UInt8]) -> MediaType? {
        guard head.count >= 12, Array(head[4..<8]) == Array("ftyp".utf8) else { return nil }
        let boxSize = Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
        guard boxSize >= 16 else { return nil }
        let end = min(boxSize, head.count)
        var brands = [String(decoding: head[8..<12], as: UTF8.self)]
        var offset = 16
        while offset + 4 <= end {
            brands.append(String(decoding: head[offset..<offset + 4], as: UTF8.self))
            offset += 4
        }
        // The major brand decides first; compatible brands only when it says nothing.
        for brand in brands {
            switch brand {
            case "avif", "avis": return .avif
            case "heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs": return .heic
            case "mif1", "msf1", "mif2": return .heif
            default: continue
            }
        }
        // No image brand: an MP4 video when a brand starts "mp4", as WHATWG's sniffing rule
        // says (a Live Photo's movie named .heic is refused by name); anything else is unknown.
        return brands.contains { $0.hasPrefix("mp4") } ? .mp4 : nil
    }

    /// SVG, HTML, XML and plain text, after an optional UTF-8 byte-order mark and white space.
    private static func textType(_ head: [UInt8]) -> MediaType? {
        var body = head[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        let isText = !body.isEmpty && body.allSatisfy { byte in
            byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D || (byte >= 0x20 && byte != 0x7F) }
        guard isText, let text = decodeUTF8Prefix(body) else { return nil }
        let trimmed = text.drop(while: { $0.isWhitespace }).lowercased()
        if trimmed.hasPrefix("<svg") || (trimmed.hasPrefix("<") && trimmed.contains("<svg")) { return .svg }
        if trimmed.hasPrefix("<!doctype html") || trimmed.hasPrefix("<html") || trimmed.hasPrefix("<head")
            || trimmed.hasPrefix("<body") { return .html }
        if trimmed.hasPrefix("<?xml") { return .xml }
        return .text
    }
}

/// Decodes UTF-8, tolerating a multi-byte character cut off at the end of the prefix.
private func decodeUTF8Prefix(_ bytes: ArraySlice<UInt8>) -> String? {
    (0...min(3, bytes.count - 1)).lazy.compactMap { String(validating: bytes.dropLast($0), as: UTF8.self) }.first
}
