#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PhotoPipeline

/// The photos inside a folder named as a `photo prepare` input: every file whose first bytes are a
/// type the pipeline takes (JPEG, PNG, WebP, HEIC/HEIF, AVIF, whatever its name says), in name
/// order; with `recursive`, the subfolders' too. Everything else is skipped with a note, hidden
/// files (`.name`) silently.
package enum PhotoFolder {
    /// One photo found: its path, and its path inside the folder named (`sub/dog.heic`), which
    /// the output keeps so that photos of two subfolders never share an output.
    package struct Photo: Sendable, Equatable {
        package let path: String
        package let relativePath: String
    }

    /// The inputs with each folder replaced by its photos; a file stays as given (and is refused,
    /// if it is not a photo, as any named file is). The notes say what was skipped and why.
    /// - Parameter outputFolder: `--out-dir`; when it lies inside a folder read recursively it is
    ///   left out, so a second run does not prepare the first run's outputs.
    package static func expand(_ inputs: [String], recursive: Bool, outputFolder: String? = nil)
        -> (photos: [(path: String, relativePath: String?)], notes: [String]) {
        var photos: [(String, String?)] = []
        var notes: [String] = []
        let output = outputFolder.flatMap(identity(of:))
        for input in inputs {
            guard isFolder(input) else {
                photos.append((input, nil))
                continue
            }
            var visited: Set<[UInt64]> = []
            let found = walk(input, relative: "", recursive: recursive, output: output, visited: &visited, notes: &notes)
            if found.isEmpty { notes.append("\(input) holds no photo\(recursive ? "" : " (subfolders are read with --recursive)")") }
            photos += found.map { ($0.path, $0.relativePath) }
        }
        return (photos, notes)
    }

    /// Whether `path` is a folder (a symbolic link to one included).
    package static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// The device and inode of `path`, if it exists.
    private static func identity(of path: String) -> [UInt64]? {
        var info = stat()
        return stat(path, &info) == 0 ? [UInt64(info.st_dev), UInt64(info.st_ino)] : nil
    }

    private static func walk(_ folder: String, relative: String, recursive: Bool, output: [UInt64]?,
                             visited: inout Set<[UInt64]>, notes: inout [String]) -> [Photo] {
        var info = stat()
        guard stat(folder, &info) == 0 else { return [] }
        // A link back to a folder above is read once.
        guard visited.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted else { return [] }
        guard let names = entries(folder) else {
            notes.append("skipped \(folder): cannot read it (\(FileIO.errnoText()))")
            return []
        }
        var photos: [Photo] = []
        for name in names where !name.hasPrefix(".") {
            let path = PathText.joining(folder, name)
            let inside = relative.isEmpty ? name : relative + "/" + name
            if isFolder(path) {
                if recursive {
                    if let output, identity(of: path) == output { continue }
                    photos += walk(path, relative: inside, recursive: true, output: output, visited: &visited, notes: &notes)
                } else {
                    notes.append("skipped \(path)/: a folder (add --recursive to prepare the photos in subfolders)")
                }
                continue
            }
            switch kind(of: path) {
            case .photo:
                photos.append(Photo(path: path, relativePath: inside))
            case .other(let what):
                notes.append("skipped \(path): \(what)")
            }
        }
        return photos
    }

    private enum Kind { case photo, other(String) }

    /// What the first bytes of a file say it is.
    private static func kind(of path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return .other("not a regular file") }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return .other("cannot read it (\(FileIO.errnoText()))") }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: MediaSniffer.prefixLength)
        let count = head.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count >= 0 else { return .other("cannot read it (\(FileIO.errnoText()))") }
        head.removeSubrange(count...)
        guard let type = MediaSniffer.sniff(head) else { return .other("not a photo") }
        if type.isAccepted { return .photo }
        return .other(type.mimeType.hasPrefix("image/") ? "an image of a type PetSpot does not take (\(type.mimeType))"
                      : "not a photo (\(type.mimeType))")
    }

    /// The names in a folder, sorted; `nil` when it cannot be read.
    private static func entries(_ folder: String) -> [String]? {
        guard let dir = opendir(folder) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
