internal import CWebP

/// WebP through libwebp's simple encoding API (lossy or lossless); an ICC profile is added as an
/// `ICCP` chunk with libwebpmux. See https://developers.google.com/speed/webp/docs/api
struct WebPEncoder: ImageEncoding {
    func encode(_ image: PixelBuffer, options: EncodingOptions, iccProfile: [UInt8]?) throws(PhotoError) -> [UInt8] {
        let pixels = image.expandedToRGB()
        var output: UnsafeMutablePointer<UInt8>?
        let stride = Int32(pixels.width * pixels.channels)
        let quality = Float(min(100, max(0, options.quality)))
        let size = pixels.pixels.withUnsafeBufferPointer { p -> Int in
            let (w, h) = (Int32(pixels.width), Int32(pixels.height))
            switch (pixels.channels, options.lossless) {
            case (4, true): return WebPEncodeLosslessRGBA(p.baseAddress, w, h, stride, &output)
            case (4, false): return WebPEncodeRGBA(p.baseAddress, w, h, stride, quality, &output)
            case (_, true): return WebPEncodeLosslessRGB(p.baseAddress, w, h, stride, &output)
            default: return WebPEncodeRGB(p.baseAddress, w, h, stride, quality, &output)
            }
        }
        defer { WebPFree(output) }
        guard size > 0, let output else {
            throw .encodingFailed(.webp, detail: "libwebp refused a \(pixels.width)×\(pixels.height) image")
        }
        let webp = Array(UnsafeBufferPointer(start: output, count: size))
        guard let iccProfile, !iccProfile.isEmpty else { return webp }
        return try Self.embedding(iccProfile, in: webp)
    }

    /// Re-muxes the bitstream with an ICCP chunk (libwebpmux writes the VP8X header it needs).
    static func embedding(_ profile: [UInt8], in webp: [UInt8]) throws(PhotoError) -> [UInt8] {
        guard let mux = WebPMuxNew() else { throw .encodingFailed(.webp, detail: "libwebpmux could not start") }
        defer { WebPMuxDelete(mux) }
        var assembled = WebPData()
        defer { WebPDataClear(&assembled) }
        let status = webp.withUnsafeBufferPointer { image in
            profile.withUnsafeBufferPointer { icc -> WebPMuxError in
                var bitstream = WebPData(bytes: image.baseAddress, size: image.count)
                var chunk = WebPData(bytes: icc.baseAddress, size: icc.count)
                var status = WebPMuxSetImage(mux, &bitstream, 1)
                if status == WEBP_MUX_OK { status = WebPMuxSetChunk(mux, "ICCP", &chunk, 1) }
                if status == WEBP_MUX_OK { status = WebPMuxAssemble(mux, &assembled) }
                return status
            }
        }
        guard status == WEBP_MUX_OK, let bytes = assembled.bytes else {
            throw .encodingFailed(.webp, detail: "libwebpmux could not add the colour profile (\(status.rawValue))")
        }
        return Array(UnsafeBufferPointer(start: bytes, count: assembled.size))
    }
}
