/// One photo's prepare, decided from its header and the options before a pixel is decoded (as
/// libvips' `vips_thumbnail_build` works out its shrink before it opens the image): the output's
/// size, how the file is decoded (``DecodePlan``), what the resize needs, and what the decode hands
/// on: pixels, YCbCr planes made for the encoder, or those planes and their JPEG, encoded while
/// they were written.
struct PreparePlan: Sendable {
    /// The output's size, stored orientation.
    let target: PixelSize
    let decode: DecodePlan
    /// Read by every decoder; its `workers` are the photo's threads, and every job on them has
    /// ended when the decode returns.
    var resize: ResizeRequest
    /// When set, a decoder that has YCbCr planes makes planes for the encoder instead of pixels:
    /// JPEG to JPEG or lossy WebP. Its `alongside` is set when those planes can become the JPEG while
    /// they are written: upright planes (turned ones complete their upright rows only at the end),
    /// of a JPEG output, on two or more threads (on one, encoding would only take turns with
    /// decoding), from a JPEG (a HEIC's planes are made tile by tile, not row by row), at a quality
    /// known before the decode (not ``PrepareOptions/autoQuality``'s, chosen on the planes).
    var planar: PlanarOutput?
    /// The colour profile the pixels are converted to sRGB from, when the photo cannot carry it
    /// (``ImageInfo/settleColourProfile()``): the decode then makes pixels, never planes.
    let convertFrom: [UInt8]?
    /// The input's type, for a conversion's errors.
    let sourceType: MediaType

    /// - Parameters:
    ///   - convertFrom: the profile to convert the pixels from, or `nil`.
    ///   - jpegHeader: a JPEG's segments up to its first scan (read only when needed).
    init(_ info: ImageInfo, options: PrepareOptions, convertingFrom convertFrom: [UInt8]? = nil, jpegHeader: @autoclosure () -> [UInt8]) {
        self.convertFrom = convertFrom
        sourceType = info.type
        let target = info.storedSize.fitting(longEdge: options.maxDimension)
        self.target = target
        resize = ResizeRequest(target: target,
                               minimumLongEdge: options.decodeHeadroom.map { Int((Double(target.longEdge) * $0).rounded(.up)) },
                               filter: options.filter, threads: options.threads, orientation: info.orientation,
                               flattenOnto: options.encoding.format.supportsAlpha ? nil : options.background)
        let subsampling = options.jpegInYCbCr && convertFrom == nil ? RenderedImage.planes(for: options.plannedEncoding) : nil
        planar = subsampling.map { PlanarOutput(subsampling: $0, twoDecoderMinimumPixels: options.twoDecoderMinimumPixels) }
        decode = DecodePlan.choose(info, jpegHeader: jpegHeader(), resize: resize, planar: planar)
        if let subsampling, Self.encodesAlongside(info, decode: decode, options: options) {
            let encoding = options.encoding
            planar?.alongside = { JPEGPlanesEncoder(options: encoding, subsampling: subsampling) }
        }
    }

    /// Whether the planes are encoded while they are written (see ``planar``).
    static func encodesAlongside(_ info: ImageInfo, decode: DecodePlan, options: PrepareOptions) -> Bool {
        guard case .jpeg = decode else { return false }
        return options.jpegInYCbCr && options.encoding.format == .jpeg && info.orientation == .up && options.threads > 1
            && !options.choosesQuality
    }
}
