internal import CCodecs

/// The image codec libraries. None is linked: each is opened when a photo first needs it
/// (`Sources/CCodecs`), so a process that never decodes a PNG never maps libpng. A library that
/// cannot be opened makes that photo fail with ``PhotoError/codecUnavailable(_:)``. A long-running
/// process (the server) opens them all at start with ``loadAll()``, so it refuses to start rather
/// than fail its first photo.
public enum CodecLibraries {
    /// `nil` once libjpeg, TurboJPEG, libpng, libwebp (demux, mux), Little CMS and libjxl are loaded; otherwise which
    /// one cannot be, why, and the package to install.
    public static func loadAll() -> String? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 512) { buffer in
            guard codecs_load_all(buffer.baseAddress, 512) != 0 else { return nil }
            return String(cString: buffer.baseAddress!)
        }
    }
}

/// One codec library; ``load()`` before the first call into it.
enum CodecLibrary: UInt32 {
    case jpeg, turboJPEG, png, webp, webpDemux, webpMux, lcms
    /// libjxl, for its butteraugli distance (``Butteraugli``).
    case jxl

    /// Opens the library and resolves its functions (once; cheap afterwards).
    /// - Throws: ``PhotoError/codecUnavailable(_:)`` naming the library and the package to install.
    func load() throws(PhotoError) {
        let problem: String? = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 512) { buffer in
            guard codecs_load(codecs_library(rawValue: rawValue), buffer.baseAddress, 512) != 0 else { return nil }
            return String(cString: buffer.baseAddress!)
        }
        if let problem { throw .codecUnavailable(problem) }
    }
}
