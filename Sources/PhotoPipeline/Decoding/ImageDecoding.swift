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
}

/// A decoded and resized image, and the size the codec decoded at before resizing.
struct DecodedImage: Sendable {
    /// `request.target`, in stored orientation unless ``isUpright``.
    var pixels: PixelBuffer
    var decodedSize: PixelSize
    /// Whether `pixels` are already turned by the request's orientation.
    var isUpright = false
}

extension ImageDecoding {
    func decodeResized(_ bytes: [UInt8], info: ImageInfo, request: DecodeRequest) throws(PhotoError) -> DecodedImage {
        let full = try decode(bytes, info: info, minimumLongEdge: request.minimumLongEdge)
        return DecodedImage(pixels: full.resized(to: request.target, filter: request.filter, threads: request.threads),
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
