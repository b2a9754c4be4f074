internal import CCodecs

/// The image codec libraries, which are loaded when a function of theirs is first called
/// (`Sources/CCodecs`): a library missing then ends the process. A long-running process (the
/// server) loads them all at start with ``loadAll()`` instead, so it refuses to start rather than
/// end on its first photo.
public enum CodecLibraries {
    /// `nil` once libjpeg, TurboJPEG, libpng and libwebp (demux, mux) are loaded; otherwise which
    /// one cannot be, why, and the package to install.
    public static func loadAll() -> String? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 512) { buffer in
            guard codecs_load_all(buffer.baseAddress, 512) != 0 else { return nil }
            return String(cString: buffer.baseAddress!)
        }
    }
}
