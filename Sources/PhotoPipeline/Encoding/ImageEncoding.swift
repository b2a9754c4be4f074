/// Output formats and their settings.
public enum OutputFormat: String, Sendable, Hashable, Codable, CaseIterable {
    case jpeg, webp, png

    /// The media type written.
    public var mediaType: MediaType {
        switch self {
        case .jpeg: .jpeg
        case .webp: .webp
        case .png: .png
        }
    }

    /// Whether the format can carry an alpha channel.
    public var supportsAlpha: Bool { self != .jpeg }

    /// Whether quality changes the output size (PNG is lossless; WebP unless `lossless`).
    public var hasQuality: Bool { self != .png }

    /// The format an output file name asks for ("photo.webp" → WebP), if any.
    public init?(fileExtension ext: String) {
        switch MediaType(fileExtension: ext) {
        case .jpeg: self = .jpeg
        case .webp: self = .webp
        case .png: self = .png
        default: return nil
        }
    }
}

/// Encoder settings.
public struct EncodingOptions: Sendable, Hashable, Codable {
    public var format: OutputFormat
    /// 1…100; JPEG and lossy WebP.
    public var quality: Int
    /// JPEG: write a progressive file.
    public var progressive: Bool
    /// WebP: encode losslessly.
    public var lossless: Bool
    /// How hard the encoder works for fewer bytes at the same picture.
    public var effort: EncodingEffort

    public init(format: OutputFormat = .jpeg, quality: Int = 85, progressive: Bool = false, lossless: Bool = false,
                effort: EncodingEffort = .normal) {
        self.format = format
        self.quality = quality
        self.progressive = progressive
        self.lossless = lossless
        self.effort = effort
    }

    /// JPEG: whether the file is progressive, as asked or for ``EncodingEffort/max``.
    var writesProgressive: Bool { progressive || effort == .max }
    /// WebP: libwebp's method, 0 (fastest) to 6 (fewest bytes).
    var webpMethod: Int32 { effort == .max ? 6 : 4 }
}

/// How hard an encoder works for fewer bytes at the same picture (`--effort`). Fewer bytes cost
/// time, measured in docs/performance.md:
/// - JPEG: ``max`` writes a progressive file with its own optimised tables (libjpeg-turbo's
///   progressive encoder over our coefficients), 2.5 % fewer bytes at equal butteraugli than the
///   baseline file, written on one thread after the last row rather than in two halves as rows
///   arrive.
/// - WebP: ``max`` is libwebp's method 6 instead of 4 (its default), about 4 % fewer bytes.
/// - PNG: no setting (libpng's default compression).
public enum EncodingEffort: String, Sendable, Hashable, Codable, CaseIterable {
    /// The fastest setting that writes our usual bytes.
    case normal
    /// The fewest bytes, at about twice the encoder's time.
    case max
}

/// Encodes pixels into a file's bytes, carrying over nothing but the ICC colour profile.
protocol ImageEncoding: Sendable {
    func encode(_ image: PixelBuffer, options: EncodingOptions, iccProfile: [UInt8]?) throws(PhotoError) -> [UInt8]
}

/// The encoders, one per output format.
enum ImageEncoders {
    /// - Parameter workers: the threads a JPEG's two parts are encoded on (`nil`: the caller's alone).
    static func encoder(for format: OutputFormat, workers: Workers? = nil) -> any ImageEncoding {
        switch format {
        case .jpeg: JPEGEncoder(workers: workers)
        case .webp: WebPEncoder()
        case .png: PNGEncoder()
        }
    }

    /// Encodes with the right encoder, after flattening alpha for formats without it.
    static func encode(_ image: PixelBuffer, options: EncodingOptions, iccProfile: [UInt8]?,
                       background: RGBColor, workers: Workers? = nil) throws(PhotoError) -> [UInt8] {
        var pixels = image
        if pixels.channels == 4 && (!options.format.supportsAlpha || pixels.isOpaque) {
            pixels = pixels.flattened(onto: background)
        }
        return try encoder(for: options.format, workers: workers).encode(pixels, options: options, iccProfile: iccProfile)
    }
}
