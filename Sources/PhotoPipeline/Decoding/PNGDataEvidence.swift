/// Before a PNG's pixel buffer exists: does the file hold enough compressed data for the size its
/// header declares? A 184-byte file may declare 10000×9999 pixels; libpng would allocate the whole
/// image before finding out that the data stops ("Not enough image data").
enum PNGDataEvidence {
    /// Deflate's best case: a 258-byte match costs at least 2 bits, so 1 byte in never gives more than 1032 out.
    static let maxDeflateRatio = 1032
    /// Filtered rows bigger than this, compressed better than ``suspiciousRatio``:1 (far beyond any
    /// photo), are inflated once into a small scratch buffer and counted before decoding.
    static let exactCountThreshold = 32 << 20
    static let suspiciousRatio = 64

    /// Throws truncated (no IEND) or corrupt (IEND present) when the IDAT data cannot fill the image.
    static func check(_ bytes: [UInt8], chunks: PNGChunkReader) throws(PhotoError) {
        guard let header = chunks.header, !chunks.imageData.isEmpty else { return }
        let required = filteredBytes(header)
        let compressed = chunks.imageData.reduce(0) { $0 + $1.count }
        var available = compressed * maxDeflateRatio
        if required > available { throw refusal(header, compressed: compressed, required: required, chunks: chunks) }
        if required > exactCountThreshold && required > compressed * suspiciousRatio {
            available = Zlib.inflatedSize(of: chunks.imageData, in: bytes, limit: required)
            if required > available { throw refusal(header, compressed: compressed, required: required, chunks: chunks) }
        }
    }

    /// The bytes libpng inflates for the whole image: each row (of each Adam7 pass) is a filter byte and its packed samples.
    static func filteredBytes(_ header: PNGChunkReader.Header) -> Int {
        let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][header.colorType] ?? 1
        let bitsPerPixel = channels * header.bitDepth
        func rows(width: Int, height: Int) -> Int {
            width > 0 && height > 0 ? height * (1 + (width * bitsPerPixel + 7) / 8) : 0
        }
        guard header.interlaced else { return rows(width: header.width, height: header.height) }
        let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        return passes.reduce(0) { total, pass in
            let (x, y, xStep, yStep) = pass
            return total + rows(width: (header.width - x + xStep - 1) / xStep, height: (header.height - y + yStep - 1) / yStep)
        }
    }

    private static func refusal(_ header: PNGChunkReader.Header, compressed: Int, required: Int, chunks: PNGChunkReader) -> PhotoError {
        let detail = "the header declares \(header.width)×\(header.height) pixels, but its \(ByteFormat.string(compressed)) "
            + "of compressed image data cannot hold them (\(ByteFormat.string(required)) once inflated)"
        return chunks.isComplete ? .corrupt(.png, detail: detail) : .truncated(.png, detail: detail)
    }
}
