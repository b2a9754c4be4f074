internal import CCodecs

/// libjxl's butteraugli distance between two pictures of one size, through its C API (Debian's
/// `libjxl0.7`, opened when first needed like the codecs): how far apart a person would judge them,
/// with 1.0 about where a difference starts to show up close.
///
/// The figure is libjxl's "3-norm": the mean of the 3-, 6- and 12-norms of the distance map, which
/// jpegli is tuned on and `../shared/tools/rd-bench.py` scores. It costs about half a microsecond a
/// pixel on one core, some twenty times a whole prepare for a picture: ``AutoQuality`` scores a
/// sample of tiles, never the whole picture.
package enum Butteraugli {
    /// The distance of `distorted` from `reference`: 8-bit RGB or gray pixels (alpha flattened
    /// first), both of one size.
    /// - Returns: `nil` when libjxl cannot score the pair (a picture under 8 pixels a side, no memory).
    /// - Throws: ``PhotoError/codecUnavailable(_:)`` without libjxl.
    package static func distance(_ reference: PixelBuffer, _ distorted: PixelBuffer) throws(PhotoError) -> Double? {
        precondition(reference.width == distorted.width && reference.height == distorted.height,
                     "butteraugli compares pictures of one size")
        try CodecLibrary.jxl.load()
        let a = rgb(reference), b = rgb(distorted)
        guard let api = lazy_JxlButteraugliApiCreate(nil) else { return nil }
        defer { lazy_JxlButteraugliApiDestroy(api) }
        var format = JxlPixelFormat(num_channels: 3, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
        let result = a.withUnsafeBytes { a in
            b.withUnsafeBytes { b in
                lazy_JxlButteraugliCompute(api, UInt32(reference.width), UInt32(reference.height),
                                      &format, a.baseAddress, a.count, &format, b.baseAddress, b.count)
            }
        }
        guard let result else { return nil }
        defer { lazy_JxlButteraugliResultDestroy(result) }
        return Double(lazy_JxlButteraugliResultGetDistance(result, 3))
    }

    private static func rgb(_ image: PixelBuffer) -> [UInt8] {
        precondition(image.channels == 1 || image.channels == 3, "flatten alpha before scoring")
        return image.channels == 3 ? image.pixels : image.expandedToRGB().pixels
    }
}
