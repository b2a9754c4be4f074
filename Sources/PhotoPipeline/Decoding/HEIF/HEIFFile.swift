internal import CHEIF

/// A HEIF/AVIF file opened with libheif (loaded on first use): the parsed boxes and the primary image's handle.
/// libheif reads only the container here (no pixels); its security limits stay at their defaults.
/// See https://github.com/strukturag/libheif/blob/v1.15.1/libheif/heif.h
struct HEIFFile: ~Copyable {
    let type: MediaType
    let context: OpaquePointer
    let primary: OpaquePointer

    /// Opens `bytes` (which must outlive the call) and runs `body` with the primary image.
    static func withFile<T>(_ bytes: [UInt8], type: MediaType,
                            _ body: (borrowing HEIFFile) throws(PhotoError) -> T) throws(PhotoError) -> T {
        guard lazy_heif_load() != 0 else {
            throw .codecUnavailable("libheif.so.1 cannot be loaded (\(String(cString: lazy_heif_load_error()))); "
                                    + "install it (Debian: apt-get install libheif1) to read HEIC and AVIF")
        }
        // Before libheif reads the boxes: reading thousands of items costs it seconds (a 170 KB grid
        // of 4096 one-tile items took 1.5 s), and some item graphs it would follow without end.
        try HEIFItemGraph(bytes).check(type)
        return try bytes.withUnsafeBufferPointer { (raw) throws(PhotoError) -> T in
            guard let context = lazy_heif_context_alloc() else { throw .corrupt(type, detail: "libheif could not allocate a context") }
            defer { lazy_heif_context_free(context) }
            try check(lazy_heif_context_read_from_memory_without_copy(context, raw.baseAddress, raw.count, nil), type)
            var handle: OpaquePointer?
            try check(lazy_heif_context_get_primary_image_handle(context, &handle), type)
            guard let handle else { throw .corrupt(type, detail: "libheif found no primary image") }
            defer { lazy_heif_image_handle_release(handle) }
            return try body(HEIFFile(type: type, context: context, primary: handle))
        }
    }

    /// Turns a libheif error into a refusal a person can act on.
    static func check(_ error: heif_error, _ type: MediaType) throws(PhotoError) {
        guard error.code != heif_error_Ok else { return }
        var message = error.message.map { String(cString: $0) } ?? "unknown error"
        while message.last?.isWhitespace == true { message.removeLast() }
        let detail = "libheif: \(message)"
        if error.subcode == heif_suberror_End_of_data { throw .truncated(type, detail: detail) }
        // libheif refuses a declared size past its own limit ("Image size 100000x100000 exceeds
        // …") while reading the header: the usual too-many-pixels refusal, not "damaged".
        if error.subcode == heif_suberror_Security_limit_exceeded,
           let match = message.firstMatch(of: /Image size ([0-9]+)x([0-9]+)/), let width = Int(match.1), let height = Int(match.2) {
            throw .tooManyPixels(width: width, height: height, limit: PhotoLimits.default.maxPixels)
        }
        if error.code == heif_error_Unsupported_feature || error.code == heif_error_Unsupported_filetype
            || error.code == heif_error_Decoder_plugin_error && error.subcode == heif_suberror_Unsupported_codec {
            throw .corrupt(type, detail: "\(detail); this build's libheif cannot decode it")
        }
        throw .corrupt(type, detail: detail)
    }
}
