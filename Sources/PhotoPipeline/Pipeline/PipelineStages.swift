/// The stages of ``PhotoPipeline/prepare(_:options:)`` one at a time, for benchmarks and tools that
/// time or inspect them separately (`prepare` itself streams JPEG decoding into the resizer).
package enum PipelineStages {
    /// Sniff and read the header.
    package static func probe(_ bytes: [UInt8]) throws(PhotoError) -> ImageInfo {
        try HeaderProbe.probe(bytes)
    }

    /// Decode in stored orientation, at the codec's reduced scale whose long edge still covers
    /// `minimumLongEdge` (JPEG DCT scaling, WebP scaled decoding), or at full size.
    package static func decode(_ bytes: [UInt8], info: ImageInfo, minimumLongEdge: Int?) throws(PhotoError) -> PixelBuffer {
        try ImageDecoders.decoder(for: info.type).decode(bytes, info: info, minimumLongEdge: minimumLongEdge)
    }

    /// Encode upright pixels with nothing but `iccProfile` as metadata.
    package static func encode(_ pixels: PixelBuffer, options: EncodingOptions, iccProfile: [UInt8]?) throws(PhotoError) -> [UInt8] {
        try ImageEncoders.encode(pixels, options: options, iccProfile: iccProfile, background: .white)
    }
}
