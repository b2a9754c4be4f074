#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PhotoPipeline

/// Folders the photo commands write into.
package enum Folder {
    /// Creates `path` and any missing parents (`mkdir -p`); `nil` when it exists or was made,
    /// otherwise what went wrong ("Permission denied", "Not a directory: out/a.jpg").
    package static func create(_ path: String) -> String? {
        var partial = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            partial += (partial.isEmpty || partial.hasSuffix("/") ? "" : "/") + component
            if mkdir(partial, 0o777) == 0 { continue }
            let code = errno
            var status = stat()
            guard code == EEXIST, stat(partial, &status) == 0 else { return FileIO.errnoText(code) }
            if status.st_mode & S_IFMT != S_IFDIR { return "\(FileIO.errnoText(ENOTDIR)): \(partial)" }
        }
        return nil
    }
}
