/// What a file's header says, read without decoding any pixels.
public struct ImageInfo: Sendable, Hashable {
    /// The type decided from the bytes.
    public var type: MediaType
    /// Width and height as stored, before EXIF orientation.
    public var storedSize: PixelSize
    /// The size the codec decodes before cropping, when larger than ``storedSize`` (HEIF `ispe`
    /// with a `clap` crop); the pixel limit applies to it as well.
    public var codedSize: PixelSize?
    /// The raw EXIF Orientation tag, when present (may be outside 1…8).
    public var orientationTag: Int?
    public var gps: GPSCoordinate?
    public var capturedAt: CaptureDate?
    /// The embedded ICC colour profile, carried over into the output (only one that
    /// ``ICCProfileCheck`` accepts).
    public var iccProfile: [UInt8]?
    /// The embedded profile that is not carried over, and why.
    public var droppedICCProfile: ICCProfileDrop?
    /// Whether the image declares alpha (an alpha channel or a transparency chunk).
    public var hasAlpha: Bool
    /// Whether the file is an animation (animated WebP, APNG); the pipeline takes the first frame.
    public var isAnimated: Bool
    /// Number of frames (1 for stills).
    public var frameCount: Int
    /// Size of the whole file in bytes.
    public var byteCount: Int
    /// Format details for people ("progressive, 4:2:0", "palette, interlaced", "lossless").
    public var encodingSummary: String

    public init(type: MediaType, storedSize: PixelSize, orientationTag: Int? = nil, gps: GPSCoordinate? = nil,
                capturedAt: CaptureDate? = nil, iccProfile: [UInt8]? = nil, hasAlpha: Bool = false,
                isAnimated: Bool = false, frameCount: Int = 1, byteCount: Int, encodingSummary: String = "") {
        self.type = type
        self.storedSize = storedSize
        self.orientationTag = orientationTag
        self.gps = gps
        self.capturedAt = capturedAt
        self.iccProfile = iccProfile
        self.hasAlpha = hasAlpha
        self.isAnimated = isAnimated
        self.frameCount = frameCount
        self.byteCount = byteCount
        self.encodingSummary = encodingSummary
    }

    /// The orientation to apply (tag values outside 1…8 mean upright).
    public var orientation: ExifOrientation { ExifOrientation(tagValue: orientationTag) }

    /// Width and height once the EXIF orientation is applied.
    public var uprightSize: PixelSize { orientation.swapsDimensions ? storedSize.transposed : storedSize }

    /// Whether the file carries an ICC colour profile.
    public var hasICCProfile: Bool { iccProfile != nil }

    /// Keeps `profile` when ``ICCProfileCheck`` accepts it for a grey or colour photo, else
    /// records why it is dropped.
    mutating func carry(_ profile: [UInt8]?, grayscale: Bool) {
        (iccProfile, droppedICCProfile) = ICCProfileCheck.vet(profile, grayscale: grayscale)
    }

    /// Drops the profile when it is larger than `limit` (an option lower than the 1 MiB maximum).
    mutating func limitICCProfile(to limit: Int) {
        guard let profile = iccProfile, let reason = ICCProfileCheck.oversize(profile.count, limit: limit) else { return }
        iccProfile = nil
        droppedICCProfile = ICCProfileDrop(byteCount: profile.count, reason: reason)
    }

    /// Drops a grey profile when `format` stores every photo in colour (WebP has no grey mode).
    mutating func fitICCProfile(to format: OutputFormat) {
        guard let profile = iccProfile, let reason = ICCProfileCheck.problem(with: profile, in: format) else { return }
        iccProfile = nil
        droppedICCProfile = ICCProfileDrop(byteCount: profile.count, reason: reason)
    }

    mutating func apply(_ exif: ExifMetadata?) {
        guard let exif else { return }
        orientationTag = orientationTag ?? exif.orientationTag
        gps = gps ?? exif.gps
        capturedAt = capturedAt ?? exif.capturedAt
    }
}
