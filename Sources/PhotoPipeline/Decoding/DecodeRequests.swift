/// What every decode needs for its resize: the output's size, how it is reached, and the threads.
struct ResizeRequest: Sendable {
    /// Final size, stored orientation.
    var target: PixelSize
    /// The codec may decode at a reduced scale whose long edge is at least this.
    var minimumLongEdge: Int?
    var filter: ResamplingFilter = .lanczos3
    var threads: Int
    /// The codec may write its output already turned upright by this (``DecodedImage/isUpright`` says
    /// whether it did), saving a rotated copy.
    var orientation: ExifOrientation = .up
    /// When set, the output has no alpha: the codec may composite onto this colour while decoding.
    /// (Compositing onto a solid colour is linear, so doing it before resizing gives the same result.)
    var flattenOnto: RGBColor?
    /// The threads the decode and the resize run their side-by-side work on (the plan's).
    var workers = Workers()
}

/// What a planar output needs besides the resize: the output is a JPEG or lossy WebP, so a decoder
/// that has YCbCr planes (a JPEG's, a planar HEIC's) hands back planes made for its encoder instead
/// of pixels (``DecodedImage/Content/planes(_:)``), and may encode them while it writes them.
struct PlanarOutput: Sendable {
    /// The chroma subsampling the encoder takes.
    var subsampling: ChromaSubsampling
    /// With two or more threads: a JPEG of at least this many pixels is decoded by two
    /// decompressors at once, in two row bands when it is baseline with restart markers at MCU rows
    /// (``JPEGRestartBands``), by component when it is progressive (``JPEGScanScript``); `nil`: never.
    var twoDecoderMinimumPixels: Int? = PrepareOptions.defaultTwoDecoderMinimumPixels
    /// When set, the planes are encoded while they are written: a decoder that makes planes row by
    /// row takes a fresh stage from this each time it opens planes, reports their finished rows to
    /// it, and hands back what it made with the planes (``DecodedImage/Content/encoded(_:planes:)``).
    var alongside: (@Sendable () -> any PlaneRowSink)?

    init(subsampling: ChromaSubsampling, twoDecoderMinimumPixels: Int? = PrepareOptions.defaultTwoDecoderMinimumPixels,
         alongside: (@Sendable () -> any PlaneRowSink)? = nil) {
        self.subsampling = subsampling
        self.twoDecoderMinimumPixels = twoDecoderMinimumPixels
        self.alongside = alongside
    }
}

/// A decoded and resized image, and the size the codec decoded at before resizing.
struct DecodedImage: Sendable {
    enum Content: Sendable {
        /// The target, in stored orientation unless ``isUpright``.
        case pixels(PixelBuffer)
        /// Upright YCbCr planes of the target, subsampled as the planar output asked.
        case planes(YCbCrImage)
        /// Those planes, and the file the planar output's stage encoded while they were written.
        case encoded(EncodedImage, planes: YCbCrImage)
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

    /// Planes, with what the stage alongside made of them, if it made anything.
    init(planes: YCbCrImage, encoded: EncodedImage? = nil, decodedSize: PixelSize) {
        content = encoded.map { .encoded($0, planes: planes) } ?? .planes(planes)
        self.decodedSize = decodedSize
        isUpright = true
    }

    /// The planes, if the content is planes.
    var planes: YCbCrImage? {
        switch content {
        case .pixels: nil
        case .planes(let planes), .encoded(_, let planes): planes
        }
    }

    /// The pixels; planes are converted to RGB.
    func rgb() throws(PhotoError) -> PixelBuffer {
        switch content {
        case .pixels(let pixels): pixels
        case .planes(let planes), .encoded(_, let planes): try planes.rgb()
        }
    }
}

/// An encoded file and the settings it was encoded with (without metadata: the ICC profile is
/// added when it is written out).
struct EncodedImage: Sendable, Equatable {
    var data: [UInt8]
    var options: EncodingOptions
}
