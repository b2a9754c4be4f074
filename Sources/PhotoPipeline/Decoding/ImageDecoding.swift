/// Decodes an accepted image into 8-bit pixels.
///
/// `minimumLongEdge`, when given, lets a codec decode at a reduced scale whose long edge is
/// still at least that many pixels (the caller finishes with a proper resampling filter).
protocol ImageDecoding: Sendable {
    func decode(_ bytes: [UInt8], info: ImageInfo, minimumLongEdge: Int?) throws(PhotoError) -> PixelBuffer
}

/// The decoders, one per accepted type.
enum ImageDecoders {
    static func decoder(for type: MediaType) -> any ImageDecoding {
        switch type {
        case .png: PNGDecoder()
        case .webp: WebPDecoder()
        default: JPEGDecoder()
        }
    }
}
