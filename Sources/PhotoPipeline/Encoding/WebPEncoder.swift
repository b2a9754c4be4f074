internal import CCodecs

/// WebP through libwebp's simple encoding API (lossy or lossless); an ICC profile is added as an
/// `ICCP` chunk with libwebpmux. See https://developers.google.com/speed/webp/docs/api
struct WebPEncoder: ImageEncoding {
    func encode(_ image: PixelBuffer, options: EncodingOptions, iccProfile: [UInt8]?) throws(PhotoError) -> [UInt8] {
        try CodecLibrary.webp.load()
        let pixels = image.expandedToRGB()
        if options.effort != .normal {
            return try encodeConfigured(pixels, options: options, iccProfile: iccProfile)
        }
        var output: UnsafeMutablePointer<UInt8>?
        let stride = Int32(pixels.width * pixels.channels)
        let quality = Float(min(100, max(0, options.quality)))
        let size = pixels.pixels.withUnsafeBufferPointer { p -> Int in
            let (w, h) = (Int32(pixels.width), Int32(pixels.height))
            switch (pixels.channels, options.lossless) {
            case (4, true): return lazy_WebPEncodeLosslessRGBA(p.baseAddress, w, h, stride, &output)
            case (4, false): return lazy_WebPEncodeRGBA(p.baseAddress, w, h, stride, quality, &output)
            case (_, true): return lazy_WebPEncodeLosslessRGB(p.baseAddress, w, h, stride, &output)
            default: return lazy_WebPEncodeRGB(p.baseAddress, w, h, stride, quality, &output)
            }
        }
        defer { lazy_WebPFree(output) }
        guard size > 0, let output else {
            throw .encodingFailed(.webp, detail: "libwebp refused a \(pixels.width)×\(pixels.height) image")
        }
        let webp = Array(UnsafeBufferPointer(start: output, count: size))
        guard let iccProfile, !iccProfile.isEmpty else { return webp }
        return try Self.embedding(iccProfile, in: webp)
    }

    /// Encodes 4:2:0 planes (``YCbCrImage``: the JPEG decoder's resized planes) as lossy WebP without
    /// going through RGB. JPEG's YCbCr is full-range BT.601 and VP8's is the same matrix in video
    /// range, so the planes only need mapping onto 16…235 (Y) and 16…240 (Cb, Cr) — what libwebp's
    /// own RGB import computes from the RGB those planes would make.
    func encode(_ image: YCbCrImage, options: EncodingOptions, iccProfile: [UInt8]?) throws(PhotoError) -> [UInt8] {
        precondition(image.subsampling == .half && !options.lossless, "lossy WebP takes 4:2:0 planes")
        try CodecLibrary.webp.load()
        var config = try Self.config(options)
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else { throw .encodingFailed(.webp, detail: "libwebp could not start") }
        picture.use_argb = 0
        picture.colorspace = WEBP_YUV420
        picture.width = Int32(image.size.width)
        picture.height = Int32(image.size.height)
        guard lazy_WebPPictureAlloc(&picture) != 0 else {
            throw .encodingFailed(.webp, detail: "libwebp could not allocate a \(image.size) picture")
        }
        defer { lazy_WebPPictureFree(&picture) }
        let sizes = image.sampledSizes
        let targets: [(UnsafeMutablePointer<UInt8>, Int)] = [(picture.y, Int(picture.y_stride)), (picture.u, Int(picture.uv_stride)),
                                                            (picture.v, Int(picture.uv_stride))]
        for plane in 0..<3 {
            let table = plane == 0 ? Self.videoRangeLuma : Self.videoRangeChroma
            let (target, stride) = targets[plane]
            image.planes[plane].withUnsafeBufferPointer { source in
                for y in 0..<sizes[plane].height {
                    let from = source.baseAddress! + y * sizes[plane].width, to = target + y * stride
                    for x in 0..<sizes[plane].width { to[x] = table[Int(from[x])] }
                }
            }
        }
        return try Self.encode(&picture, config: &config, iccProfile: iccProfile)
    }

    /// RGB or RGBA pixels through libwebp's advanced API, for the settings its simple one fixes
    /// (the method, which ``EncodingEffort`` chooses).
    private func encodeConfigured(_ pixels: PixelBuffer, options: EncodingOptions, iccProfile: [UInt8]?) throws(PhotoError) -> [UInt8] {
        var config = try Self.config(options)
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else { throw .encodingFailed(.webp, detail: "libwebp could not start") }
        picture.use_argb = options.lossless ? 1 : 0
        picture.width = Int32(pixels.width)
        picture.height = Int32(pixels.height)
        let stride = Int32(pixels.width * pixels.channels)
        let imported = pixels.pixels.withUnsafeBufferPointer { p in
            pixels.channels == 4 ? lazy_WebPPictureImportRGBA(&picture, p.baseAddress, stride)
                : lazy_WebPPictureImportRGB(&picture, p.baseAddress, stride)
        }
        defer { lazy_WebPPictureFree(&picture) }
        guard imported != 0 else {
            throw .encodingFailed(.webp, detail: "libwebp could not take a \(pixels.width)×\(pixels.height) picture")
        }
        return try Self.encode(&picture, config: &config, iccProfile: iccProfile)
    }

    /// libwebp's settings for `options`: the simple API's (its default preset at the quality given
    /// when lossy, 70 when lossless), with the method ``EncodingEffort`` chooses.
    private static func config(_ options: EncodingOptions) throws(PhotoError) -> WebPConfig {
        var config = WebPConfig()
        let quality = options.lossless ? 70 : Float(min(100, max(0, options.quality)))
        guard WebPConfigPreset(&config, WEBP_PRESET_DEFAULT, quality) != 0 else {
            throw .encodingFailed(.webp, detail: "libwebp could not be configured")
        }
        config.lossless = options.lossless ? 1 : 0
        config.method = options.webpMethod
        return config
    }

    /// Encodes a filled picture into memory, with the colour profile when there is one.
    private static func encode(_ picture: inout WebPPicture, config: inout WebPConfig, iccProfile: [UInt8]?) throws(PhotoError) -> [UInt8] {
        var writer = WebPMemoryWriter()
        lazy_WebPMemoryWriterInit(&writer)
        defer { lazy_WebPMemoryWriterClear(&writer) }
        let encoded = withUnsafeMutablePointer(to: &writer) { writerPointer in
            picture.writer = lazy_WebPMemoryWrite
            picture.custom_ptr = UnsafeMutableRawPointer(writerPointer)
            return lazy_WebPEncode(&config, &picture)
        }
        guard encoded != 0, let bytes = writer.mem else {
            throw .encodingFailed(.webp, detail: "libwebp could not encode a \(picture.width)×\(picture.height) picture (error \(picture.error_code.rawValue))")
        }
        let webp = Array(UnsafeBufferPointer(start: bytes, count: writer.size))
        guard let iccProfile, !iccProfile.isEmpty else { return webp }
        return try embedding(iccProfile, in: webp)
    }

    /// Full-range samples (0…255) to video range: luma 16…235, chroma 16…240 around 128.
    static let videoRangeLuma: [UInt8] = (0..<256).map { UInt8(16 + ($0 * 219 + 127) / 255) }
    static let videoRangeChroma: [UInt8] = (0..<256).map { UInt8(128 + Int((Double($0 - 128) * 224 / 255).rounded())) }

    /// Re-muxes the bitstream with an ICCP chunk (libwebpmux writes the VP8X header it needs).
    static func embedding(_ profile: [UInt8], in webp: [UInt8]) throws(PhotoError) -> [UInt8] {
        try CodecLibrary.webp.load()
        try CodecLibrary.webpMux.load()
        guard let mux = WebPMuxNew() else { throw .encodingFailed(.webp, detail: "libwebpmux could not start") }
        defer { lazy_WebPMuxDelete(mux) }
        var assembled = WebPData()
        defer { WebPDataClear(&assembled) }
        let status = webp.withUnsafeBufferPointer { image in
            profile.withUnsafeBufferPointer { icc -> WebPMuxError in
                var bitstream = WebPData(bytes: image.baseAddress, size: image.count)
                var chunk = WebPData(bytes: icc.baseAddress, size: icc.count)
                var status = lazy_WebPMuxSetImage(mux, &bitstream, 1)
                if status == WEBP_MUX_OK { status = lazy_WebPMuxSetChunk(mux, "ICCP", &chunk, 1) }
                if status == WEBP_MUX_OK { status = lazy_WebPMuxAssemble(mux, &assembled) }
                return status
            }
        }
        guard status == WEBP_MUX_OK, let bytes = assembled.bytes else {
            throw .encodingFailed(.webp, detail: "libwebpmux could not add the colour profile (\(status.rawValue))")
        }
        return Array(UnsafeBufferPointer(start: bytes, count: assembled.size))
    }
}
