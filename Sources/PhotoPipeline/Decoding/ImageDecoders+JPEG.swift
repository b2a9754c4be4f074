internal import CTurboJPEG

/// JPEG through libjpeg-turbo's TurboJPEG API (2.1, the `tj*` calls), with DCT-domain downscaling.
///
/// Warnings matter: libjpeg-turbo only *warns* on a file that ends early ("Premature end of JPEG
/// file") and pads it with grey; the pipeline treats that as truncation. "Extraneous bytes before
/// marker" is common in real files and tolerated. See https://libjpeg-turbo.org/Documentation/Documentation
struct JPEGDecoder: ImageDecoding {
    func decode(_ bytes: [UInt8], info: ImageInfo, minimumLongEdge: Int?) throws(PhotoError) -> PixelBuffer {
        guard let handle = tjInitDecompress() else { throw .corrupt(.jpeg, detail: "TurboJPEG could not start") }
        defer { tjDestroy(handle) }

        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        if tjDecompressHeader3(handle, bytes, UInt(bytes.count), &width, &height, &subsampling, &colorspace) != 0 {
            try Self.check(handle)
        }
        if width < 1 || height < 1 { throw .invalidDimensions(width: Int(width), height: Int(height)) }

        let factor = Self.scalingFactor(long: Int(max(width, height)), minimumLongEdge: minimumLongEdge)
        let outWidth = Int((Int64(width) * Int64(factor.num) + Int64(factor.denom) - 1) / Int64(factor.denom))
        let outHeight = Int((Int64(height) * Int64(factor.num) + Int64(factor.denom) - 1) / Int64(factor.denom))

        let isCMYK = colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
        let isGray = colorspace == Int32(TJCS_GRAY.rawValue)
        let format = isCMYK ? TJPF_CMYK : isGray ? TJPF_GRAY : TJPF_RGB
        let channels = isCMYK ? 4 : isGray ? 1 : 3
        var pixels = [UInt8](repeating: 0, count: outWidth * outHeight * channels)
        let status = pixels.withUnsafeMutableBufferPointer { out in
            tjDecompress2(handle, bytes, UInt(bytes.count), out.baseAddress, Int32(outWidth), 0, Int32(outHeight),
                          format.rawValue, TJFLAG_LIMITSCANS)
        }
        if status != 0 { try Self.check(handle) }
        if isCMYK {
            return PixelBuffer(width: outWidth, height: outHeight, channels: 3, pixels: Self.rgb(fromInvertedCMYK: pixels))
        }
        return PixelBuffer(width: outWidth, height: outHeight, channels: channels, pixels: pixels)
    }

    /// The smallest of 1/2, 1/4, 1/8 whose scaled long edge still covers `minimumLongEdge` (else 1).
    ///
    /// Only the power-of-two factors: libjpeg-turbo has SIMD code for them, while the other M/8
    /// scaled IDCTs decode barely faster than full size (64 vs 70 ms on a 12 MP photo) and alias
    /// more (measured SSIM 0.944 vs 0.995 on the corpus's 18 MP q100 photo at 3/8 vs 4/8).
    static func scalingFactor(long: Int, minimumLongEdge: Int?) -> tjscalingfactor {
        let full = tjscalingfactor(num: 1, denom: 1)
        guard let target = minimumLongEdge, target < long else { return full }
        var count: Int32 = 0
        guard let list = tjGetScalingFactors(&count) else { return full }
        var best = full
        for factor in UnsafeBufferPointer(start: list, count: Int(count))
        where factor.num == 1 && [1, 2, 4, 8].contains(factor.denom) {
            let scaled = (long * Int(factor.num) + Int(factor.denom) - 1) / Int(factor.denom)
            let isSmaller = factor.num * best.denom < best.num * factor.denom
            if scaled >= target && isSmaller { best = factor }
        }
        return best
    }

    /// After a call returned -1: passes tolerable warnings, throws for everything else.
    private static func check(_ handle: tjhandle) throws(PhotoError) {
        let message = Self.message(handle)
        let isWarning = tjGetErrorCode(handle) == TJERR_WARNING.rawValue
        if !(isWarning && isTolerable(warning: message)) { throw classify(message) }
    }

    private static func message(_ handle: tjhandle) -> String {
        String(cString: tjGetErrorStr2(handle))
    }

    /// Warnings that real, intact files produce and that leave every pixel decoded.
    private static func isTolerable(warning message: String) -> Bool {
        message.contains("extraneous bytes before marker") || message.contains("Invalid SOS parameters")
    }

    /// Maps a libjpeg message onto the pipeline's error cases.
    static func classify(_ message: String) -> PhotoError {
        let lower = message.lowercased()
        if lower.contains("premature end") || lower.contains("insufficient data") || lower.contains("suspension") {
            return .truncated(.jpeg, detail: "libjpeg-turbo: \(message)")
        }
        if lower.contains("empty jpeg image") || lower.contains("dnl not supported") {
            return .invalidDimensions(width: 0, height: 0)
        }
        return .corrupt(.jpeg, detail: "libjpeg-turbo: \(message)")
    }

    /// Adobe CMYK JPEGs store inverted ink values; RGB = inverted C/M/Y scaled by inverted K.
    static func rgb(fromInvertedCMYK cmyk: [UInt8]) -> [UInt8] {
        let count = cmyk.count / 4
        var rgb = [UInt8](repeating: 0, count: count * 3)
        cmyk.withUnsafeBufferPointer { src in
            rgb.withUnsafeMutableBufferPointer { dst in
                for i in 0..<count {
                    let k = UInt32(src[i * 4 + 3])
                    for c in 0..<3 {
                        dst[i * 3 + c] = UInt8((UInt32(src[i * 4 + c]) * k + 127) / 255)
                    }
                }
            }
        }
        return rgb
    }
}
