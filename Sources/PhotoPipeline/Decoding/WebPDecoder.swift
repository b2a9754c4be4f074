internal import CCodecs

/// WebP through libwebp: still images with `WebPDecode` (scaling while decoding when the target
/// is much smaller), animations through `WebPAnimDecoder`, whose first frame is taken.
/// See https://developers.google.com/speed/webp/docs/api
struct WebPDecoder: ImageDecoding {
    func decode(_ bytes: [UInt8], info: ImageInfo, minimumLongEdge: Int?) throws(PhotoError) -> PixelBuffer {
        if info.isAnimated { return try decodeFirstFrame(bytes) }
        var config = WebPDecoderConfig()
        try CodecLibrary.webp.load()
        guard WebPInitDecoderConfig(&config) != 0 else { throw .corrupt(.webp, detail: "libwebp version mismatch") }
        let status = bytes.withUnsafeBufferPointer { WebPGetFeatures($0.baseAddress, $0.count, &config.input) }
        guard status == VP8_STATUS_OK else { throw Self.error(status) }
        let width = Int(config.input.width), height = Int(config.input.height)
        guard width > 0, height > 0 else { throw .invalidDimensions(width: width, height: height) }
        let hasAlpha = config.input.has_alpha != 0
        let channels = hasAlpha ? 4 : 3

        // libwebp's rescaler averages areas; the caller's headroom leaves the rest to the Lanczos pass.
        var outSize = PixelSize(width: width, height: height)
        if let target = minimumLongEdge, outSize.longEdge > target {
            outSize = outSize.fitting(longEdge: target)
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(outSize.width)
            config.options.scaled_height = Int32(outSize.height)
        }
        var pixels = [UInt8](repeating: 0, count: outSize.width * outSize.height * channels)
        let decodeStatus = pixels.withUnsafeMutableBufferPointer { out -> VP8StatusCode in
            config.output.colorspace = hasAlpha ? MODE_RGBA : MODE_RGB
            config.output.is_external_memory = 1
            config.output.u.RGBA.rgba = out.baseAddress
            config.output.u.RGBA.stride = Int32(outSize.width * channels)
            config.output.u.RGBA.size = out.count
            defer { lazy_WebPFreeDecBuffer(&config.output) }
            return bytes.withUnsafeBufferPointer { lazy_WebPDecode($0.baseAddress, $0.count, &config) }
        }
        guard decodeStatus == VP8_STATUS_OK else { throw Self.error(decodeStatus) }
        return PixelBuffer(width: outSize.width, height: outSize.height, channels: channels, pixels: pixels)
    }

    /// The first frame of an animation, composed onto the canvas, as RGBA.
    private func decodeFirstFrame(_ bytes: [UInt8]) throws(PhotoError) -> PixelBuffer {
        try bytes.withUnsafeBufferPointer { (source) throws(PhotoError) -> PixelBuffer in
            var data = WebPData(bytes: source.baseAddress, size: source.count)
            var options = WebPAnimDecoderOptions()
            try CodecLibrary.webpDemux.load()
            guard WebPAnimDecoderOptionsInit(&options) != 0 else { throw .corrupt(.webp, detail: "libwebp version mismatch") }
            options.color_mode = MODE_RGBA
            guard let decoder = WebPAnimDecoderNew(&data, &options) else {
                throw .corrupt(.webp, detail: "libwebp could not read the animation's frames")
            }
            defer { lazy_WebPAnimDecoderDelete(decoder) }
            var animation = WebPAnimInfo()
            guard lazy_WebPAnimDecoderGetInfo(decoder, &animation) != 0 else {
                throw .corrupt(.webp, detail: "libwebp could not read the animation header")
            }
            var frame: UnsafeMutablePointer<UInt8>?
            var timestamp: Int32 = 0
            guard lazy_WebPAnimDecoderGetNext(decoder, &frame, &timestamp) != 0, let frame else {
                throw .corrupt(.webp, detail: "the first animation frame cannot be decoded")
            }
            let width = Int(animation.canvas_width), height = Int(animation.canvas_height)
            let pixels = Array(UnsafeBufferPointer(start: frame, count: width * height * 4))
            return PixelBuffer(width: width, height: height, channels: 4, pixels: pixels)
        }
    }

    private static func error(_ status: VP8StatusCode) -> PhotoError {
        switch status {
        case VP8_STATUS_NOT_ENOUGH_DATA:
            .truncated(.webp, detail: "libwebp: not enough data")
        case VP8_STATUS_OUT_OF_MEMORY:
            .corrupt(.webp, detail: "libwebp: out of memory")
        case VP8_STATUS_UNSUPPORTED_FEATURE:
            .corrupt(.webp, detail: "libwebp: unsupported feature")
        case VP8_STATUS_INVALID_PARAM:
            .corrupt(.webp, detail: "libwebp: invalid parameter")
        default:
            .corrupt(.webp, detail: "libwebp: bitstream error")
        }
    }
}
