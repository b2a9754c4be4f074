/// Walks a WebP's RIFF chunks: the bitstream's size, VP8X flags, ICCP, EXIF and animation.
struct WebPChunkReader {
    enum Bitstream: String, Sendable { case lossy = "lossy", lossless = "lossless" }

    var canvas: PixelSize?
    var bitstream: Bitstream?
    var hasAlpha = false
    var isAnimated = false
    var frameCount = 0
    var iccProfile: [UInt8]?
    var exif: ExifMetadata?
    /// Whether the file ends inside a chunk.
    var endsInsideChunk = false

    init(_ bytes: [UInt8]) throws(PhotoError) {
        let reader = ByteReader(bytes, bigEndian: false)
        guard bytes.count >= 12 + 8 else {
            throw .truncated(.webp, detail: "the file ends right after the RIFF header, before any image chunk")
        }
        var offset = 12
        while let type = reader.ascii(offset, length: 4), let size32 = reader.u32(offset + 4) {
            let size = Int(size32)
            let data = offset + 8
            let available = min(size, bytes.count - data)
            if available < size { endsInsideChunk = true }
            switch type {
            case "VP8X" where available >= 10:
                let flags = bytes[data]
                hasAlpha = flags & 0x10 != 0
                isAnimated = flags & 0x02 != 0
                canvas = PixelSize(width: Self.u24(bytes, data + 4) + 1, height: Self.u24(bytes, data + 7) + 1)
            case "VP8 " where available >= 10:
                bitstream = bitstream ?? .lossy
                // Frame tag (3 bytes), start code 9D 01 2A, then 14-bit width and height.
                if canvas == nil, bytes[data + 3] == 0x9D, bytes[data + 4] == 0x01, bytes[data + 5] == 0x2A {
                    canvas = PixelSize(width: Int(reader.u16(data + 6)! & 0x3FFF), height: Int(reader.u16(data + 8)! & 0x3FFF))
                }
                frameCount = max(frameCount, 1)
            case "VP8L" where available >= 5:
                bitstream = bitstream ?? .lossless
                if canvas == nil, bytes[data] == 0x2F {
                    let bits = reader.u32(data + 1)!
                    canvas = PixelSize(width: Int(bits & 0x3FFF) + 1, height: Int((bits >> 14) & 0x3FFF) + 1)
                    hasAlpha = hasAlpha || (bits >> 28) & 1 != 0
                }
                frameCount = max(frameCount, 1)
            case "ALPH":
                hasAlpha = true
            case "ANMF":
                frameCount += 1
                if bitstream == nil, available >= 24, let inner = reader.ascii(data + 16, length: 4) {
                    bitstream = inner == "VP8L" ? .lossless : .lossy
                }
            case "ICCP" where iccProfile == nil && available == size && size > 0:
                iccProfile = Array(bytes[data..<(data + size)])
            case "EXIF" where exif == nil && available == size:
                // Some writers keep the JPEG-style "Exif\0\0" prefix inside the chunk.
                let skip = bytes[data..<(data + size)].starts(with: Array("Exif\0\0".utf8)) ? 6 : 0
                exif = ExifReader.read(tiff: bytes, base: data + skip, count: size - skip)
            default:
                break
            }
            offset = data + size + (size & 1)
        }
    }

    private static func u24(_ bytes: [UInt8], _ offset: Int) -> Int {
        Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16
    }

    /// The probe result for a WebP file.
    func imageInfo(byteCount: Int) throws(PhotoError) -> ImageInfo {
        guard let canvas else {
            if endsInsideChunk {
                throw .truncated(.webp, detail: "the file ends before a complete VP8, VP8L or VP8X chunk gives the picture's size")
            }
            throw .corrupt(.webp, detail: "no valid VP8, VP8L or VP8X chunk gives the picture's size")
        }
        var parts = [bitstream?.rawValue ?? "unknown bitstream"]
        if hasAlpha { parts.append("alpha") }
        if isAnimated { parts.append("animated, \(frameCount) frames") }
        var info = ImageInfo(type: .webp, storedSize: canvas, hasAlpha: hasAlpha,
                             isAnimated: isAnimated, frameCount: max(1, frameCount), byteCount: byteCount,
                             encodingSummary: parts.joined(separator: ", "))
        info.apply(exif)
        info.carry(iccProfile, grayscale: false)
        return info
    }
}
