/// Decodes an accepted image into 8-bit pixels.
///
/// `minimumLongEdge`, when given, lets a codec decode at a reduced scale whose long edge is
/// still at least that many pixels (the caller finishes with a proper resampling filter).
protocol ImageDecoding: Sendable {
    /// The whole image (possibly at a reduced scale), in stored orientation.
    func decode(_ bytes: [UInt8], info: ImageInfo, minimumLongEdge: Int?) throws(PhotoError) -> PixelBuffer

    /// The image resized as `resize` asks. Codecs that can stream rows resize as they decode, so
    /// the full-size image never sits in memory; codecs that have YCbCr planes make the `planar`
    /// output's planes when it is given, and encode them alongside when it says so.
    func decodeResized(_ bytes: [UInt8], info: ImageInfo, resize: ResizeRequest,
                       planar: PlanarOutput?) throws(PhotoError) -> DecodedImage
}

extension ImageDecoding {
    /// Decoded whole, then resized (pixels only).
    func decodeResized(_ bytes: [UInt8], info: ImageInfo, resize: ResizeRequest,
                       planar: PlanarOutput?) throws(PhotoError) -> DecodedImage {
        let full = try decode(bytes, info: info, minimumLongEdge: resize.minimumLongEdge)
        return DecodedImage(pixels: full.resized(to: resize.target, filter: resize.filter, threads: resize.threads, on: resize.workers),
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
