import PhotoPipeline

/// Lists the metadata containers in an encoded file: JPEG APPn/COM segments, PNG ancillary chunks, WebP chunks.
enum MetadataScanner {
    static func containers(in bytes: [UInt8]) -> [String] {
        switch MediaSniffer.sniff(bytes) {
        case .jpeg: jpegSegments(bytes)
        case .png: pngChunks(bytes)
        case .webp: webpChunks(bytes)
        default: []
        }
    }

    /// Names like "APP1:Exif", "APP1:XMP", "APP2:ICC_PROFILE", "COM".
    static func jpegSegments(_ b: [UInt8]) -> [String] {
        var names: [String] = []
        var i = 2
        while i + 4 <= b.count, b[i] == 0xFF {
            let marker = b[i + 1]
            if marker == 0xDA { break }
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            let body = Array(b[(i + 4)..<min(b.count, i + 2 + length)])
            switch marker {
            case 0xE1: names.append(body.starts(with: Array("Exif".utf8)) ? "APP1:Exif" : "APP1:XMP")
            case 0xE2: names.append(body.starts(with: Array("ICC_PROFILE".utf8)) ? "APP2:ICC_PROFILE" : "APP2")
            case 0xFE: names.append("COM")
            case 0xE3...0xEF: names.append("APP\(marker - 0xE0)")
            default: break
            }
            i += 2 + length
        }
        return names
    }

    static func pngChunks(_ b: [UInt8]) -> [String] {
        var names: [String] = []
        var i = 8
        while i + 8 <= b.count {
            let length = Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
            names.append(String(decoding: b[(i + 4)..<(i + 8)], as: UTF8.self))
            i += 12 + length
        }
        return names
    }

    static func webpChunks(_ b: [UInt8]) -> [String] {
        var names: [String] = []
        var i = 12
        while i + 8 <= b.count {
            let size = Int(b[i + 4]) | Int(b[i + 5]) << 8 | Int(b[i + 6]) << 16 | Int(b[i + 7]) << 24
            names.append(String(decoding: b[i..<(i + 4)], as: UTF8.self))
            i += 8 + size + (size & 1)
        }
        return names
    }

    /// Whether `needle` occurs anywhere in `haystack` (for leaked strings such as a comment).
    static func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
        let n = Array(needle.utf8)
        guard n.count <= haystack.count else { return false }
        return (0...(haystack.count - n.count)).contains { haystack[$0..<($0 + n.count)].elementsEqual(n) }
    }
}
