internal import CHEIF

/// Reads a HEIC/HEIF/AVIF header through libheif (boxes only, no pixels): the primary image's
/// upright size, alpha, bit depth, image count, EXIF and colour profile.
///
/// Orientation: libheif applies the `irot`/`imir` properties while decoding, so the size is
/// already upright and ``ImageInfo/orientationTag`` stays `nil`. An EXIF Orientation tag in a
/// HEIF file is never applied (HEIF/MIAF specs, as Apple, Chrome and libvips do); the summary
/// says that it was ignored.
enum HEIFHeaderReader {
    static func read(_ bytes: [UInt8], type: MediaType) throws(PhotoError) -> ImageInfo {
        try HEIFFile.withFile(bytes, type: type) { (file) throws(PhotoError) -> ImageInfo in
            let handle = file.primary
            // The size after irot/imir/clap, as decoded; ispe is the coded size before them.
            let size = PixelSize(width: Int(lazy_heif_image_handle_get_width(handle)), height: Int(lazy_heif_image_handle_get_height(handle)))
            let declared = PixelSize(width: Int(lazy_heif_image_handle_get_ispe_width(handle)),
                                     height: Int(lazy_heif_image_handle_get_ispe_height(handle)))
            let exif = exifMetadata(handle)
            let profile = colourProfile(handle)
            var parts = [type == .avif ? "AV1" : "HEVC", "\(lazy_heif_image_handle_get_luma_bits_per_pixel(handle))-bit"]
            if lazy_heif_image_handle_has_alpha_channel(handle) != 0 { parts.append("alpha") }
            let images = Int(lazy_heif_context_get_number_of_top_level_images(file.context))
            parts.append("primary image of \(images)")
            let thumbnails = Int(lazy_heif_image_handle_get_number_of_thumbnails(handle))
            if thumbnails > 0 { parts.append("\(thumbnails) thumbnail\(thumbnails == 1 ? "" : "s")") }
            parts.append(profile.summary)
            if let tag = exif?.orientationTag, tag != 1 {
                parts.append("EXIF orientation \(tag) ignored (HEIF rotates with irot/imir)")
            }
            var info = ImageInfo(type: type, storedSize: size,
                                 hasAlpha: lazy_heif_image_handle_has_alpha_channel(handle) != 0,
                                 frameCount: max(1, images), byteCount: bytes.count,
                                 encodingSummary: parts.joined(separator: ", "))
            // Decoding allocates the coded size (ispe) before cropping: the limits check it too.
            if declared.pixelCount > size.pixelCount { info.codedSize = declared }
            info.gps = exif?.gps
            info.capturedAt = exif?.capturedAt
            if let drop = profile.drop { info.droppedICCProfile = drop } else { info.carry(profile.icc, grayscale: false) }
            return info
        }
    }

    /// The primary image's EXIF block: a 4-byte offset to the TIFF header, then the TIFF data.
    private static func exifMetadata(_ handle: OpaquePointer) -> ExifMetadata? {
        var id: heif_item_id = 0
        guard lazy_heif_image_handle_get_list_of_metadata_block_IDs(handle, "Exif", &id, 1) == 1 else { return nil }
        let size = lazy_heif_image_handle_get_metadata_size(handle, id)
        guard size > 4 else { return nil }
        var block = [UInt8](repeating: 0, count: size)
        let error = block.withUnsafeMutableBytes { lazy_heif_image_handle_get_metadata(handle, id, $0.baseAddress) }
        guard error.code == heif_error_Ok else { return nil }
        let skip = 4 + (Int(block[0]) << 24 | Int(block[1]) << 16 | Int(block[2]) << 8 | Int(block[3]))
        guard skip < size else { return nil }
        return ExifReader.read(tiff: block, base: skip, count: size - skip)
    }

    /// The ICC profile (carried into the output) and a description of the ICC or nclx profile.
    /// A profile over ``ICCProfileCheck/maximumBytes`` is not read at all.
    private static func colourProfile(_ handle: OpaquePointer) -> (icc: [UInt8]?, drop: ICCProfileDrop?, summary: String) {
        var icc: [UInt8]?
        var drop: ICCProfileDrop?
        let iccSize = lazy_heif_image_handle_get_raw_color_profile_size(handle)
        if let reason = ICCProfileCheck.oversize(iccSize, limit: ICCProfileCheck.maximumBytes) {
            drop = ICCProfileDrop(byteCount: iccSize, reason: reason)
        } else if iccSize > 0 {
            var profile = [UInt8](repeating: 0, count: iccSize)
            let error = profile.withUnsafeMutableBytes { lazy_heif_image_handle_get_raw_color_profile(handle, $0.baseAddress) }
            if error.code == heif_error_Ok { icc = profile }
        }
        var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
        var summary = icc.map { "ICC profile (\($0.count) bytes)" } ?? (iccSize > 0 ? "ICC profile (\(iccSize) bytes)" : nil)
        if lazy_heif_image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok, let nclx {
            defer { lazy_heif_nclx_color_profile_free(nclx) }
            let p = nclx.pointee
            let text = "nclx (primaries \(p.color_primaries.rawValue), transfer \(p.transfer_characteristics.rawValue), "
                + "matrix \(p.matrix_coefficients.rawValue), \(p.full_range_flag != 0 ? "full" : "limited") range)"
            summary = summary.map { "\($0), \(text)" } ?? text
        }
        return (icc, drop, summary ?? "no colour profile")
    }
}
