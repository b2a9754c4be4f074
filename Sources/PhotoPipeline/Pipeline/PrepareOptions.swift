/// Everything that decides what ``PhotoPipeline/prepare(_:options:)`` produces.
///
/// The defaults give an upload-ready JPEG: long edge at most 2048 px, quality 85.
public struct PrepareOptions: Sendable, Hashable, Codable {
    /// The output's long edge is at most this many pixels (never upscaled). Default 2048.
    public var maxDimension: Int
    public var encoding: EncodingOptions
    /// When set, the quality is chosen for each photo: the lowest whose picture stays within the
    /// target's butteraugli distance (``AutoQuality``), instead of `encoding.quality`.
    public var autoQuality: AutoQuality?
    /// When set, the output must fit in this many bytes: quality goes down first, then the size.
    public var maxBytes: Int?
    /// The lowest quality the byte budget may go to. Default 40.
    public var minQuality: Int
    /// The smallest long edge the byte budget may shrink to. Default 256.
    public var minDimension: Int
    /// What transparent pixels become in formats without alpha. Default white.
    public var background: RGBColor
    public var filter: ResamplingFilter
    public var limits: PhotoLimits
    /// How much larger than the target the codec's reduced-scale decode must stay (JPEG DCT scaling,
    /// WebP scaled decode), leaving the rest to the resampling filter. DCT scaling alone aliases:
    /// on the corpus photos DCT-scaling to 1.03× the target lost 0.05 SSIM, and 1.3× lost 0.011 on
    /// the q100 photo. At 1.5× every photo stays within 0.002 SSIM of vipsthumbnail (the closest,
    /// sony-rx100m4-crop at 1024 px, 0.0017 below; the rest equal or above) and a 12 MP photo →
    /// 1024 px decodes at half size: 0.58× vipsthumbnail's time instead of 0.69×
    /// (scripts/bench-prepare.sh). vipsthumbnail itself keeps 2×. Against libvips 8.18
    /// (scripts/bench-headroom.sh, bench-results/headroom-20261125.md), 1.25× and 1.0× lose 0.0037
    /// SSIM on the q100 photo at 2048 px and 0.012 at 1024 px (1.0×: 0.014 on nokia83 at 1024 px)
    /// and save no time on it: it is progressive, and its entropy decoding costs the same at any
    /// scale. `nil` decodes at full size. Default 1.5.
    public var decodeHeadroom: Double?
    /// Threads for resampling one photo. Default 1; the CLI uses the cores left over by parallel files.
    public var threads: Int
    /// JPEG to JPEG or lossy WebP: resize the file's own Y, Cb and Cr planes and encode them as they
    /// are — no chroma upsampling and colour conversion after decoding or before encoding, chroma
    /// resized at its stored resolution. `false` resizes RGB pixels as for every other input and
    /// output (both are Lanczos; results differ by rounding). Default true.
    package var jpegInYCbCr: Bool = true
    /// The largest embedded ICC profile carried into the output; a larger one is dropped (and the
    /// prepared photo says so). At most, and by default, ``ICCProfileCheck/maximumBytes`` (1 MiB).
    public var maxICCProfileBytes: Int
    /// JPEG to JPEG or lossy WebP with two or more threads: a JPEG of at least this many pixels is
    /// decoded and resized by two decompressors at once, to the same planes: as two row bands when it
    /// is baseline with restart markers at MCU rows (an upright JPEG output is then encoded in two
    /// halves joined at a restart marker: other bytes, the same pixels), as luma and chroma when it
    /// is progressive (the same bytes).
    /// `nil`: every file on one decoder. Default
    /// ``defaultTwoDecoderMinimumPixels`` (1 MP): below it a second decoder gains nothing
    /// (docs/performance.md has the measurements).
    package var twoDecoderMinimumPixels: Int? = PrepareOptions.defaultTwoDecoderMinimumPixels
    package static let defaultTwoDecoderMinimumPixels = 1 << 20

    public init(maxDimension: Int = 2048, encoding: EncodingOptions = EncodingOptions(), autoQuality: AutoQuality? = nil,
                maxBytes: Int? = nil,
                minQuality: Int = 40, minDimension: Int = 256, background: RGBColor = .white,
                filter: ResamplingFilter = .lanczos3, limits: PhotoLimits = .default, decodeHeadroom: Double? = 1.5,
                threads: Int = 1, maxICCProfileBytes: Int = ICCProfileCheck.maximumBytes) {
        self.maxDimension = maxDimension
        self.encoding = encoding
        self.autoQuality = autoQuality
        self.maxBytes = maxBytes
        self.minQuality = minQuality
        self.minDimension = minDimension
        self.background = background
        self.filter = filter
        self.limits = limits
        self.decodeHeadroom = decodeHeadroom
        self.threads = threads
        self.maxICCProfileBytes = maxICCProfileBytes
    }

    /// Whether the quality is chosen for the photo: ``autoQuality`` set, for an output with a
    /// quality (JPEG or lossy WebP).
    var choosesQuality: Bool {
        autoQuality != nil && encoding.format.hasQuality && !encoding.lossless
    }

    /// The encoding the decode is planned for: with ``autoQuality``, its search's first quality (the
    /// planes' chroma subsampling follows from it: 4:2:0 for JPEG and WebP).
    var plannedEncoding: EncodingOptions {
        guard let autoQuality else { return encoding }
        var planned = encoding
        planned.quality = autoQuality.start(for: encoding.format)
        return planned
    }

    /// Checks ranges; the message names the option and its allowed values.
    public func validate() throws(PhotoError) {
        guard maxDimension >= 1 else { throw .invalidOption("The maximum dimension must be at least 1 pixel (got \(maxDimension)).") }
        guard (1...100).contains(encoding.quality) else { throw .invalidOption("The quality must be between 1 and 100 (got \(encoding.quality)).") }
        try autoQuality?.validate()
        guard (1...100).contains(minQuality) else { throw .invalidOption("The minimum quality must be between 1 and 100 (got \(minQuality)).") }
        if let maxBytes, maxBytes < 1 { throw .invalidOption("The byte budget must be at least 1 byte (got \(maxBytes)).") }
        if let decodeHeadroom, !(decodeHeadroom >= 1) { throw .invalidOption("The decode headroom must be at least 1 (got \(decodeHeadroom)).") }
        guard (0...ICCProfileCheck.maximumBytes).contains(maxICCProfileBytes) else {
            throw .invalidOption("The ICC profile limit must be between 0 and \(ByteFormat.string(ICCProfileCheck.maximumBytes)) "
                                 + "(got \(ByteFormat.string(maxICCProfileBytes))); larger profiles are always dropped.")
        }
        guard limits.maxPixels >= 1, limits.maxInputBytes >= 1 else { throw .invalidOption("Limits must be positive.") }
    }
}

/// An upload-ready photo: the encoded bytes and what they are.
public struct PreparedPhoto: Sendable, Hashable {
    public var data: [UInt8]
    public var format: OutputFormat
    /// Final (upright) size.
    public var size: PixelSize
    /// The quality used in the end (chosen for the photo with ``PrepareOptions/autoQuality``; lower
    /// than asked or chosen when the byte budget required it).
    public var quality: Int
    /// With ``PrepareOptions/autoQuality``: the butteraugli distance estimated for the quality
    /// chosen (`nil` without it, or when no quality in its range was estimated within the target).
    public var estimatedDistance: Double? = nil
    /// What the source's header said (type, original size, orientation, GPS, date, …).
    public var source: ImageInfo
    /// Size of the buffer the codec decoded (smaller than the source when it scaled while decoding).
    public var decodedSize: PixelSize
    /// Where the time went.
    public var timings: StageTimings

    public var mimeType: String { format.mediaType.mimeType }
    public var byteCount: Int { data.count }
}

/// Wall time spent in each stage of one ``PhotoPipeline/prepare(_:options:)`` call.
public struct StageTimings: Sendable, Hashable {
    public var probe: Duration = .zero
    /// Decoding, and for JPEG also resizing (its rows stream straight into the resizer).
    public var decode: Duration = .zero
    /// Resize (non-JPEG) and orient (every attempt, when a byte budget asked for several).
    public var transform: Duration = .zero
    /// Encode (every attempt).
    public var encode: Duration = .zero

    public init() {}

    /// Runs `body`, adding its duration to `stage`.
    @inline(__always)
    mutating func measure<T, E: Error>(_ stage: WritableKeyPath<StageTimings, Duration>,
                                       _ body: () throws(E) -> T) throws(E) -> T {
        let clock = ContinuousClock()
        let start = clock.now
        defer { self[keyPath: stage] += clock.now - start }
        return try body()
    }
}
