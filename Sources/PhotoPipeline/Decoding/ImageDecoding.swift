/// Decodes an accepted image into 8-bit pixels.
///
/// `minimumLongEdge`, when given, lets a codec decode at a reduced scale whose long edge is
/// still at least that many pixels (the caller finishes with a proper resampling filter).
protocol ImageDecoding: Sendable {
    /// The whole image (possibly at a reduced scale), in stored orientation.
    func decode(_ bytes: [UInt8], info: ImageInfo, minimumLongEdge: Int?) throws(PhotoError) -> PixelBuffer

    /// The image resized to `request.target` (stored orientation). Codecs that can stream rows
    /// resize as they decode, so the full-size image never sits in memory.
    func decodeResized(_ bytes: [UInt8], info: ImageInfo, request: DecodeRequest) throws(PhotoError) -> DecodedImage
}

/// What the pipeline wants from a decoder.
struct DecodeRequest: Sendable {
    /// The codec may decode at a reduced scale whose long edge is at least this.
    var minimumLongEdge: Int?
    /// Final size, stored orientation.
    var target: PixelSize
    var filter: ResamplingFilter
    var threads: Int
    /// When set, the output has no alpha: the codec may composite onto this colour while decoding.
    /// (Compositing onto a solid colour is linear, so doing it before resizing gives the same result.)
    var flattenOnto: RGBColor?
    /// The codec may write its output already turned upright by this (``DecodedImage/isUpright`` says
    /// whether it did), saving a rotated copy.
    var orientation: ExifOrientation = .up
    /// When set, the output will be a JPEG with this chroma subsampling: a JPEG decoder may hand
    /// back YCbCr planes made for it instead of pixels (``DecodedImage/Content/planes``).
    var planes: ChromaSubsampling?
    /// With `planes`: the next stage, told of every finished row of the planes as they are written
    /// (the JPEG encoded alongside). A decoder that makes planes opens it and reports to it.
    var sink: (any PlaneRowSink)?
    /// With `planes` and two or more threads: a JPEG of at least this many pixels is decoded by two
    /// decompressors at once, in two row bands when it is baseline with restart markers at MCU rows
    /// (``JPEGRestartBands``), by component when it is progressive (``JPEGScanScript``); `nil`: never.
    var twoDecoderMinimumPixels: Int? = PrepareOptions.defaultTwoDecoderMinimumPixels
    /// The threads the decode runs its side-by-side work on (the pipeline's, for its plan).
    var workers = Workers()
}

/// A decoded and resized image, and the size the codec decoded at before resizing.
struct DecodedImage: Sendable {
    enum Content: Sendable {
        /// `request.target`, in stored orientation unless ``isUpright``.
        case pixels(PixelBuffer)
        /// Upright YCbCr planes of `request.target`, subsampled as `request.planes` asked.
        case planes(YCbCrImage)
    }

    var content: Content
    var decodedSize: PixelSize
    /// Whether the content is already turned by the request's orientation.
    var isUpright: Bool

    init(pixels: PixelBuffer, decodedSize: PixelSize, isUpright: Bool = false) {
        content = .pixels(pixels)
        self.decodedSize = decodedSize
        self.isUpright = isUpright
    }

    init(planes: YCbCrImage, decodedSize: PixelSize) {
        content = .planes(planes)
        self.decodedSize = decodedSize
        isUpright = true
    }

    /// The pixels; planes are converted to RGB.
    func rgb() throws(PhotoError) -> PixelBuffer {
        switch content {
        case .pixels(let pixels): pixels
        case .planes(let planes): try planes.rgb()
        }
    }
}

extension ImageDecoding {
    func decodeResized(_ bytes: [UInt8], info: ImageInfo, request: DecodeRequest) throws(PhotoError) -> DecodedImage {
        let full = try decode(bytes, info: info, minimumLongEdge: request.minimumLongEdge)
        return DecodedImage(pixels: full.resized(to: request.target, filter: request.filter, threads: request.threads, on: request.workers),
                            decodedSize: PixelSize(width: full.width, height: full.height))
    }
}

/// The decoders, one per accepted type.
enum ImageDecoders {
    static func decoder(for type: MediaType) -> any ImageDecoding {
        switch type {
        case .png: PNGDecoder()
        case .webp: WebPDecoder()
        case .heic, .heif, .avif: HEIFDecoder(type: type)
        default: JPEGDecoder()
        }
    }
}
