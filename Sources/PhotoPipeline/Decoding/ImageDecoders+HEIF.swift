internal import CHEIF

/// HEIC/HEIF/AVIF through libheif: the primary image (grids assembled into one picture), with
/// `irot`/`imir`/`clap` applied by libheif, so the pixels come out upright. 10- and 12-bit images
/// are reduced to 8 bits by libheif (`convert_hdr_to_8bit`). Strict decoding turns missing tiles
/// or damaged data into an error instead of a half-grey picture.
struct HEIFDecoder: ImageDecoding {
    let type: MediaType

    func decode(_ bytes: [UInt8], info: ImageInfo, minimumLongEdge: Int?) throws(PhotoError) -> PixelBuffer {
        try HEIFFile.withFile(bytes, type: type) { (file) throws(PhotoError) -> PixelBuffer in
            let hasAlpha = heif_image_handle_has_alpha_channel(file.primary) != 0
            guard let options = heif_decoding_options_alloc() else {
                throw .corrupt(type, detail: "libheif could not allocate decoding options")
            }
            defer { heif_decoding_options_free(options) }
            options.pointee.convert_hdr_to_8bit = 1
            options.pointee.strict_decoding = 1
            var image: OpaquePointer?
            try HEIFFile.check(heif_decode_image(file.primary, &image, heif_colorspace_RGB,
                                                 hasAlpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB,
                                                 options), type)
            guard let image else { throw .corrupt(type, detail: "libheif returned no image") }
            defer { heif_image_release(image) }
            return try Self.pixels(of: image, channels: hasAlpha ? 4 : 3, type: type)
        }
    }

    /// Copies libheif's interleaved 8-bit plane (rows may be padded) into a tight buffer.
    private static func pixels(of image: OpaquePointer, channels: Int, type: MediaType) throws(PhotoError) -> PixelBuffer {
        let width = Int(heif_image_get_width(image, heif_channel_interleaved))
        let height = Int(heif_image_get_height(image, heif_channel_interleaved))
        guard width > 0, height > 0 else { throw .invalidDimensions(width: width, height: height) }
        guard heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved) == 8 else {
            throw .corrupt(type, detail: "libheif did not convert the image to 8 bits per channel")
        }
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride) else {
            throw .corrupt(type, detail: "libheif returned no pixel plane")
        }
        let rowBytes = width * channels
        let pixels = [UInt8](unsafeUninitializedCapacity: rowBytes * height) { buffer, count in
            for y in 0..<height {
                let row = UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[(y * rowBytes)..<((y + 1) * rowBytes)])
                row.copyMemory(from: UnsafeRawBufferPointer(start: plane + y * Int(stride), count: rowBytes))
            }
            count = rowBytes * height
        }
        return PixelBuffer(width: width, height: height, channels: channels, pixels: pixels)
    }
}
