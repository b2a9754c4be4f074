internal import CCodecs

/// PNG through libpng's simplified `png_image_*` API, which reports errors through `message`
/// instead of `longjmp` (http://www.libpng.org/pub/png/libpng-manual.txt, "simplified API").
///
/// Every colour type, bit depth, palette + tRNS and Adam7 interlacing decode to 8-bit gray,
/// RGB or RGBA; gAMA is honoured so the pixels come out in sRGB, and a file without gAMA is
/// taken to be sRGB at every bit depth. APNG: libpng decodes the IDAT
/// default image, which is the first frame.
struct PNGDecoder: ImageDecoding {
    private static let formatGray: UInt32 = 0, formatRGB: UInt32 = 2, formatRGBA: UInt32 = 3
    private static let formatLinear: UInt32 = 4

    func decode(_ bytes: [UInt8], info: ImageInfo, minimumLongEdge: Int?) throws(PhotoError) -> PixelBuffer {
        try decode(bytes, info: info, compositingOnto: nil)
    }

    func decodeResized(_ bytes: [UInt8], info: ImageInfo, resize: ResizeRequest,
                       planar: PlanarOutput?) throws(PhotoError) -> DecodedImage {
        let full = try decode(bytes, info: info, compositingOnto: resize.flattenOnto)
        return DecodedImage(pixels: full.resized(to: resize.target, filter: resize.filter, threads: resize.threads, on: resize.workers),
                            decodedSize: PixelSize(width: full.width, height: full.height))
    }

    /// Decodes; with `background`, libpng composites alpha onto it and the result has no alpha
    /// channel (8-bit files only: its 16-bit linear path can only composite onto black).
    private func decode(_ bytes: [UInt8], info: ImageInfo, compositingOnto background: RGBColor?) throws(PhotoError) -> PixelBuffer {
        let chunks = try PNGChunkReader(bytes)
        // libpng allocates a text or unknown chunk's whole declared length before reading it: a
        // 716-byte file whose iTXt chunk declares 1.9 GB took 1.9 GB and 2 s to refuse (found by the
        // `prepare` fuzzer). A chunk that runs past the end of the file is refused first.
        if let chunk = chunks.overrunningChunk {
            throw .truncated(.png, detail: "its \(chunk.type) chunk declares \(ByteFormat.string(chunk.declared)), "
                             + "but the file ends \(ByteFormat.string(chunk.available)) later")
        }
        try CodecLibrary.png.load()
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        guard lazy_png_image_begin_read_from_memory(&image, bytes, bytes.count) != 0 else {
            let message = Self.message(&image)
            lazy_png_image_free(&image)
            throw Self.classify(message, chunks: chunks)
        }
        // On every way out, including the evidence check's refusal below (which used to leak libpng's
        // control structures, ~1.6 KB per refused PNG; found by LeakSanitizer in the `prepare`
        // fuzzer). png_image_free is a no-op once png_image_finish_read has freed them.
        defer { lazy_png_image_free(&image) }
        let sixteenBit = chunks.header?.bitDepth == 16
        let composite = info.hasAlpha && background != nil && !sixteenBit
        let channels = info.hasAlpha && !composite ? 4 : (chunks.header?.colorType == 0 && !info.hasAlpha ? 1 : 3)
        // libpng 1.6.39's simplified API mis-deinterlaces 16-bit images when it reduces them to
        // 8 bits (rows come out duplicated); its 16-bit linear output is right, so 16-bit files
        // take that path and are converted to 8-bit sRGB here.
        image.format = (channels == 4 ? Self.formatRGBA : channels == 1 ? Self.formatGray : Self.formatRGB)
            | (sixteenBit ? Self.formatLinear : 0)
        let width = Int(image.width), height = Int(image.height)
        guard width > 0, height > 0 else { throw .invalidDimensions(width: width, height: height) }
        try PNGDataEvidence.check(bytes, chunks: chunks)
        let samples = width * height * channels
        var pixels = [UInt8](repeating: 0, count: sixteenBit ? 0 : samples)
        var linear = [UInt16](repeating: 0, count: sixteenBit ? samples : 0)
        let ok = sixteenBit
            ? linear.withUnsafeMutableBytes { lazy_png_image_finish_read(&image, nil, $0.baseAddress, Int32(width * channels), nil) }
            : pixels.withUnsafeMutableBytes { out in
                var color = png_color(red: background?.red ?? 0, green: background?.green ?? 0, blue: background?.blue ?? 0)
                return composite
                    ? lazy_png_image_finish_read(&image, &color, out.baseAddress, Int32(width * channels), nil)
                    : lazy_png_image_finish_read(&image, nil, out.baseAddress, Int32(width * channels), nil)
            }
        if ok == 0 { throw Self.classify(Self.message(&image), chunks: chunks) }
        if sixteenBit { pixels = LinearLight.sRGB8(fromPremultiplied16: linear, channels: channels, transfer: Self.transfer(chunks)) }
        // Strict policy: every pixel decoded is not enough; the chunk stream must end with an intact IEND.
        guard chunks.isComplete else {
            throw .truncated(.png, detail: "the file ends before the IEND chunk that closes a PNG")
        }
        return PixelBuffer(width: width, height: height, channels: channels, pixels: pixels)
    }

    /// What libpng's 16-bit "linear" output holds, by the file's tags, and so how it becomes sRGB.
    ///
    /// Asked for linear output, libpng takes a 16-bit file without gAMA or sRGB to be linear light
    /// already and leaves its values alone: they are the file's own sRGB-encoded values (as
    /// browsers, Pillow and libvips read an untagged PNG of any depth), so they only scale to 8
    /// bits. Treating them as linear made an untagged gradient far too bright (a mean error of 50
    /// per channel). An sRGB chunk makes libpng linearise with its 2.2 power law, undone by the
    /// same law. Only a gAMA chunk without sRGB yields true linear light, encoded with the sRGB curve.
    static func transfer(_ chunks: PNGChunkReader) -> LinearLight.Transfer {
        if chunks.hasSRGBChunk { return .gamma22 }
        return chunks.hasGammaChunk ? .sRGB : .none
    }

    private static func message(_ image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// libpng's messages, mapped onto truncated (the data stops) or corrupt (the data is wrong).
    static func classify(_ message: String, chunks: PNGChunkReader) -> PhotoError {
        let lower = message.lowercased()
        let detail = "libpng: \(message.isEmpty ? "unknown error" : message)"
        if lower.contains("image width is zero") || lower.contains("image height is zero") {
            return .invalidDimensions(width: chunks.header?.width ?? 0, height: chunks.header?.height ?? 0)
        }
        if lower.contains("read error") || lower.contains("unexpected end") || lower.contains("truncated")
            || (!chunks.isComplete && !lower.contains("crc") && !lower.contains("bad") && !lower.contains("invalid")) {
            return .truncated(.png, detail: detail)
        }
        return .corrupt(.png, detail: detail)
    }
}
