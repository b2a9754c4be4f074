internal import CHEIF

/// HEIC/HEIF/AVIF through libheif: the primary image (grids assembled into one picture), with
/// `irot`/`imir`/`clap` applied by libheif, so the pixels come out upright. 10- and 12-bit images
/// are decoded to 16-bit little-endian samples and rounded to 8 bits here (v·255/max), which is
/// exact; libheif 1.15's `convert_hdr_to_8bit` path gave visibly wrong colours on our 10-bit
/// sample. Strict decoding turns missing tiles or damaged data into an error instead of a
/// half-grey picture.
struct HEIFDecoder: ImageDecoding {
    let type: MediaType

    func decode(_ bytes: [UInt8], info: ImageInfo, minimumLongEdge: Int?) throws(PhotoError) -> PixelBuffer {
        try HEIFFile.withFile(bytes, type: type) { (file) throws(PhotoError) -> PixelBuffer in
            let hasAlpha = lazy_heif_image_handle_has_alpha_channel(file.primary) != 0
            let highBitDepth = lazy_heif_image_handle_get_luma_bits_per_pixel(file.primary) > 8
            let chroma = switch (hasAlpha, highBitDepth) {
            case (false, false): heif_chroma_interleaved_RGB
            case (true, false): heif_chroma_interleaved_RGBA
            case (false, true): heif_chroma_interleaved_RRGGBB_LE
            case (true, true): heif_chroma_interleaved_RRGGBBAA_LE
            }
            guard let options = lazy_heif_decoding_options_alloc() else {
                throw .corrupt(type, detail: "libheif could not allocate decoding options")
            }
            defer { lazy_heif_decoding_options_free(options) }
            options.pointee.strict_decoding = 1
            // A grid's own descriptor (in `idat`) names its output size, which libheif 1.15 trusts
            // over the item's `ispe`: a 593-byte file declaring a 64×48 grid of 28009×28005 passed
            // the pixel limit, then made libheif allocate 430 MB and crash (found by the `prepare`
            // fuzzer). Nothing decoded may be larger than the header announced.
            lazy_heif_context_set_maximum_image_size_limit(file.context, Int32(clamping: Self.sizeLimit(file.primary)))
            var image: OpaquePointer?
            try HEIFFile.check(lazy_heif_decode_image(file.primary, &image, heif_colorspace_RGB, chroma, options), type)
            guard let image else { throw .corrupt(type, detail: "libheif returned no image") }
            defer { lazy_heif_image_release(image) }
            let pixels = try Self.pixels(of: image, channels: hasAlpha ? 4 : 3, type: type)
            guard pixels.width == info.storedSize.width, pixels.height == info.storedSize.height else {
                throw .corrupt(type, detail: "libheif decoded \(pixels.width)×\(pixels.height), but the header declares \(info.storedSize)")
            }
            return pixels
        }
    }

    /// To JPEG or lossy WebP, the common HEIC and AVIF (8-bit 4:2:0 HEVC or AV1, alone or in a grid)
    /// go from the codec's planes to the encoder's without RGB (``HEIFPlanarDecoder``); everything
    /// else is decoded to pixels by libheif, then resized.
    func decodeResized(_ bytes: [UInt8], info: ImageInfo, resize: ResizeRequest,
                       planar: PlanarOutput?) throws(PhotoError) -> DecodedImage {
        if let planar {
            let container = HEIFContainer(bytes)
            try container.graph.check(type)
            if let decoded = HEIFPlanarDecoder(container).decodeResized(info: info, resize: resize, subsampling: planar.subsampling) {
                return decoded
            }
        }
        let full = try decode(bytes, info: info, minimumLongEdge: resize.minimumLongEdge)
        return DecodedImage(pixels: full.resized(to: resize.target, filter: resize.filter, threads: resize.threads, on: resize.workers),
                            decodedSize: PixelSize(width: full.width, height: full.height))
    }

    /// libheif refuses to decode an image whose width or height reaches this: one more than the
    /// largest side the header declares (the primary image, after and before irot/clap).
    static func sizeLimit(_ handle: OpaquePointer) -> Int {
        let sides = [lazy_heif_image_handle_get_width(handle), lazy_heif_image_handle_get_height(handle),
                     lazy_heif_image_handle_get_ispe_width(handle), lazy_heif_image_handle_get_ispe_height(handle)]
        return Int(sides.max() ?? 0) + 1
    }

    /// Copies libheif's interleaved plane (rows may be padded) into a tight 8-bit buffer.
    private static func pixels(of image: OpaquePointer, channels: Int, type: MediaType) throws(PhotoError) -> PixelBuffer {
        let width = Int(lazy_heif_image_get_width(image, heif_channel_interleaved))
        let height = Int(lazy_heif_image_get_height(image, heif_channel_interleaved))
        guard width > 0, height > 0 else { throw .invalidDimensions(width: width, height: height) }
        let bits = Int(lazy_heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved))
        guard (8...16).contains(bits) else { throw .corrupt(type, detail: "libheif returned \(bits)-bit samples") }
        var stride: Int32 = 0
        guard let plane = lazy_heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride) else {
            throw .corrupt(type, detail: "libheif returned no pixel plane")
        }
        let rowBytes = width * channels
        let maximum = (1 << bits) - 1
        let pixels = [UInt8](unsafeUninitializedCapacity: rowBytes * height) { buffer, count in
            for y in 0..<height {
                let source = plane + y * Int(stride)
                if bits == 8 {
                    UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[(y * rowBytes)..<((y + 1) * rowBytes)])
                        .copyMemory(from: UnsafeRawBufferPointer(start: source, count: rowBytes))
                } else {
                    for i in 0..<rowBytes {
                        let value = Int(source[2 * i]) | Int(source[2 * i + 1]) << 8
                        buffer[y * rowBytes + i] = UInt8((min(value, maximum) * 255 + maximum / 2) / maximum)
                    }
                }
            }
            count = rowBytes * height
        }
        return PixelBuffer(width: width, height: height, channels: channels, pixels: pixels)
    }
}
