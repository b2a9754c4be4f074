/// What the encoder gets: pixels, or (JPEG to JPEG or lossy WebP at the target size) the decoder's
/// resized YCbCr planes, with the JPEG made of them while they were written, if one was.
enum RenderedImage: Sendable {
    case pixels(PixelBuffer)
    case planes(YCbCrImage, encoded: EncodedImage?)

    /// Upright size.
    var size: PixelSize {
        switch self {
        case .pixels(let pixels): PixelSize(width: pixels.width, height: pixels.height)
        case .planes(let planes, _): planes.size
        }
    }

    /// The planes an encoder takes as they are: JPEG with the quality's subsampling, lossy WebP 4:2:0;
    /// `nil` for the rest (PNG, lossless WebP take pixels).
    static func planes(for options: EncodingOptions) -> ChromaSubsampling? {
        switch options.format {
        case .jpeg: JPEGEncoder.subsampling(quality: options.quality)
        case .webp where !options.lossless: .half
        default: nil
        }
    }

    /// Encodes with `options`: the file made alongside when it was made with these very options;
    /// planes go to the JPEG or WebP encoder as they are when it takes their subsampling; otherwise
    /// through RGB like any pixels. A JPEG's two parts are encoded side by side on `workers`.
    func encode(options: EncodingOptions, iccProfile: [UInt8]?, background: RGBColor,
                workers: Workers? = nil) throws(PhotoError) -> [UInt8] {
        guard case .planes(let planes, let encoded) = self else {
            return try ImageEncoders.encode(rgb(), options: options, iccProfile: iccProfile, background: background, workers: workers)
        }
        if let encoded, encoded.options == options {
            guard let iccProfile, !iccProfile.isEmpty else { return encoded.data }
            return JPEGEncoder.embedding(iccProfile, in: encoded.data)
        }
        if planes.subsampling == Self.planes(for: options) {
            if options.format == .webp { return try WebPEncoder().encode(planes, options: options, iccProfile: iccProfile) }
            return try JPEGEncoder(workers: workers).encode(planes, options: options, iccProfile: iccProfile)
        }
        return try ImageEncoders.encode(rgb(), options: options, iccProfile: iccProfile, background: background, workers: workers)
    }

    /// The pixels; planes are converted to RGB.
    func rgb() throws(PhotoError) -> PixelBuffer {
        switch self {
        case .pixels(let pixels): pixels
        case .planes(let planes, _): try planes.rgb()
        }
    }
}
