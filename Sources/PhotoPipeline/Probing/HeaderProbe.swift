/// Reads an image's header — size, orientation, GPS, capture date, colour profile, alpha,
/// animation — without decoding pixels.
package enum HeaderProbe {
    /// Sniffs `bytes` and reads the header of an accepted type.
    /// - Throws: ``PhotoError/empty``, ``PhotoError/notAnImage``, ``PhotoError/unsupportedType(_:)``,
    ///   or a truncated/corrupt error when the header itself cannot be read.
    package static func probe(_ bytes: [UInt8]) throws(PhotoError) -> ImageInfo {
        guard !bytes.isEmpty else { throw .empty }
        guard let type = MediaSniffer.sniff(bytes) else {
            // A JPEG start marker and nothing after it (an interrupted copy): cut short, not "not an image".
            if bytes.count <= 3, bytes.starts(with: [0xFF, 0xD8]) { throw .truncated(.jpeg, detail: "the file holds only the start marker") }
            throw .notAnImage
        }
        switch type {
        case .jpeg: return try JPEGHeaderReader.read(bytes)
        case .png: return try PNGChunkReader(bytes).imageInfo(byteCount: bytes.count)
        case .webp: return try WebPChunkReader(bytes).imageInfo(byteCount: bytes.count)
        case .heic, .heif, .avif: return try HEIFHeaderReader.read(bytes, type: type)
        default: throw .unsupportedType(type)
        }
    }
}
