import Foundation

/// The folders and files inside a cache folder:
///
/// ```
/// <root>/index.sqlite       the index (SQLite, WAL), with -wal and -shm beside it
/// <root>/lock               the lock every change to the files or the index holds
/// <root>/photos/ab/abcd….jpg the cached photos, named after their key
/// <root>/tmp/               files being written; leftovers of killed processes are swept
/// ```
struct CacheLayout: Sendable, Hashable {
    /// The cache folder, without a trailing slash.
    let root: String

    init(root: URL) {
        var path = root.standardizedFileURL.path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        self.root = path
    }

    var indexPath: String { root + "/index.sqlite" }
    var lockPath: String { root + "/lock" }
    var photosPath: String { root + "/photos" }
    var tmpPath: String { root + "/tmp" }

    /// `photos/ab/<key>.<ext>`: the first two hex digits of the key spread the files over 256 folders.
    static func relativePath(key: String, fileExtension: String) -> String {
        "photos/\(key.prefix(2))/\(key).\(fileExtension)"
    }

    /// The absolute path of a path relative to the cache folder.
    func absolutePath(_ relative: String) -> String {
        root + "/" + relative
    }

    /// The folder holding the file at `relative`.
    func parentPath(_ relative: String) -> String {
        (absolutePath(relative) as NSString).deletingLastPathComponent
    }

    /// Creates the cache folder (and any missing parent) and its `photos/` and `tmp/`, each with
    /// mode 0700 as the XDG Base Directory spec asks; existing folders are left as they are.
    func createDirectories() throws(CacheError) {
        var path = ""
        for component in root.split(separator: "/") {
            path += "/" + component
            try Posix.makeDirectory(path)
        }
        try Posix.makeDirectory(photosPath)
        try Posix.makeDirectory(tmpPath)
    }
}
