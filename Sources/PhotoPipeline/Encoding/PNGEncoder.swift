internal import CCodecs

/// PNG through libpng's simplified `png_image_write_to_memory`. The simplified API cannot write an
/// ICC profile, so an `iCCP` chunk is spliced in after IHDR (and no sRGB chunk is written then).
struct PNGEncoder: ImageEncoding {
    func encode(_ image: PixelBuffer, options: EncodingOptions, iccProfile: [UInt8]?) throws(PhotoError) -> [UInt8] {
        try CodecLibrary.png.load()
        var png = png_image()
        png.version = UInt32(PNG_IMAGE_VERSION)
        png.width = UInt32(image.width)
        png.height = UInt32(image.height)
        png.format = image.channels == 4 ? 3 : image.channels == 3 ? 2 : 0
        if iccProfile != nil { png.flags = UInt32(PNG_IMAGE_FLAG_COLORSPACE_NOT_sRGB) }
        let rowStride = Int32(image.width * image.channels)
        var size: Int = 0
        let sized = image.pixels.withUnsafeBytes { pixels in
            lazy_png_image_write_to_memory(&png, nil, &size, 0, pixels.baseAddress, rowStride, nil)
        }
        guard sized != 0, size > 0 else { throw .encodingFailed(.png, detail: Self.message(&png)) }
        var output = [UInt8](repeating: 0, count: size)
        let written = output.withUnsafeMutableBytes { out in
            image.pixels.withUnsafeBytes { pixels in
                lazy_png_image_write_to_memory(&png, out.baseAddress, &size, 0, pixels.baseAddress, rowStride, nil)
            }
        }
        guard written != 0 else { throw .encodingFailed(.png, detail: Self.message(&png)) }
        output.removeSubrange(size...)
        guard let iccProfile, !iccProfile.isEmpty else { return output }
        return Self.embedding(iccProfile, in: output)
    }

    private static func message(_ image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// Inserts `iCCP` (name "ICC Profile", zlib-compressed) right after the 8-byte signature and IHDR.
    static func embedding(_ profile: [UInt8], in png: [UInt8]) -> [UInt8] {
        let afterIHDR = 8 + 8 + 13 + 4
        guard png.count > afterIHDR else { return png }
        let data = Array("ICC Profile".utf8) + [0, 0] + Zlib.deflate(profile)
        let typeAndData = Array("iCCP".utf8) + data
        let length = UInt32(data.count)
        var chunk: [UInt8] = [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
        chunk += typeAndData
        let crc = Zlib.crc32(typeAndData)
        chunk += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        return Array(png[0..<afterIHDR]) + chunk + Array(png[afterIHDR...])
    }
}
