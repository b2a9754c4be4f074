/// How one photo is decoded, chosen from its probed header, the output and the worker count
/// (``choose(_:jpegHeader:resize:planar:)``); each plan is carried out behind its folder's one
/// entry point: `Decoding/JPEG` (``JPEGDecoder``), `Decoding/HEIF` (``HEIFDecoder``), PNG and WebP.
enum DecodePlan: Sendable, Equatable {
    /// A JPEG, one of the ways ``JPEGDecoder/Strategy`` lists.
    case jpeg(JPEGDecoder.Strategy)
    /// HEIC or AVIF: its coded tiles straight into YCbCr planes where the file allows
    /// (``HEIFPlanarDecoder``, both cores inside the HEVC decoder), else libheif's RGB.
    case heif
    /// PNG or WebP: the whole image (WebP scaled while decoding), then resized.
    case whole

    /// Two decompressors at once on two cores pay from about 1 MP up, for a JPEG resized in its own
    /// planes: two row bands when the file has restart markers at MCU rows, else a progressive
    /// file's luma and chroma; everything else is one stream.
    /// - Parameter jpegHeader: a JPEG's segments up to its first scan (read only when needed).
    static func choose(_ info: ImageInfo, jpegHeader: @autoclosure () -> [UInt8], resize: ResizeRequest,
                       planar: PlanarOutput?) -> DecodePlan {
        switch info.type {
        case .heic, .heif, .avif: return .heif
        case .png, .webp: return .whole
        default: break
        }
        if JPEGDecoder.isExact(info, resize: resize, planar: planar) { return .jpeg(.exact) }
        guard let planar, resize.threads > 1, let minimum = planar.twoDecoderMinimumPixels,
              info.storedSize.pixelCount >= minimum else { return .jpeg(.stream) }
        let header = jpegHeader()
        if JPEGRestartBands.layout(header) != nil { return .jpeg(.rowBands) }
        // Not known from a header cut short: the split reads the file's own scans and declines a
        // baseline file.
        if JPEGScanScript.isProgressive(header) != false { return .jpeg(.lumaChroma) }
        return .jpeg(.stream)
    }
}
