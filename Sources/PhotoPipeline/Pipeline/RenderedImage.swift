/// What the encoder gets: pixels, or (JPEG to JPEG at the target size) the decoder's resized YCbCr planes.
enum RenderedImage: Sendable {
    case pixels(PixelBuffer)
    case planes(YCbCrImage)

    /// Upright size.
    var size: PixelSize {
        switch self {
        case .pixels(let pixels): PixelSize(width: pixels.width, height: pixels.height)
        case .planes(let planes): planes.size
        }
    }

    /// The pixels; planes are converted to RGB.
    func rgb() throws(PhotoError) -> PixelBuffer {
        switch self {
        case .pixels(let pixels): pixels
        case .planes(let planes): try planes.rgb()
        }
    }

    /// Encodes with `options`: planes go to the JPEG encoder as they are when the quality asks for
    /// their subsampling, otherwise through RGB like any pixels.
    func encode(options: EncodingOptions, iccProfile: [UInt8]?, background: RGBColor) throws(PhotoError) -> [UInt8] {
        if case .planes(let planes) = self, options.format == .jpeg,
           JPEGEncoder.subsampling(quality: options.quality) == planes.subsampling {
            return try JPEGEncoder().encode(planes, options: options, iccProfile: iccProfile)
        }
        return try ImageEncoders.encode(rgb(), options: options, iccProfile: iccProfile, background: background)
    }
}
