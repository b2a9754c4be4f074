#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The few POSIX calls the cache makes, each turning `errno` into a ``CacheError``.
enum Posix {
    /// The text of the current `errno`.
    static func errnoText(_ code: Int32 = errno) -> String {
        String(cString: strerror(code))
    }

    /// Maps an `errno` from writing `path` to the error a person can act on.
    static func writeError(_ code: Int32, path: String) -> CacheError {
        switch code {
        case ENOSPC, EDQUOT: .diskFull(path: path)
        case EACCES, EPERM, EROFS: .cannotWrite(path: path, reason: errnoText(code))
        default: .ioError(path: path, reason: errnoText(code))
        }
    }

    /// `mkdir(path, 0700)`, accepting a folder that exists already.
    static func makeDirectory(_ path: String) throws(CacheError) {
        if mkdir(path, 0o700) == 0 { return }
        let code = errno
        var info = stat()
        if code == EEXIST, stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { return }
        let reason = code == EEXIST ? "a file with that name is in the way" : errnoText(code)
        throw code == ENOSPC ? .diskFull(path: path) : .cannotCreateDirectory(path: path, reason: reason)
    }

    /// Flushes a folder's entries (a rename into it, a new file) to the disk.
    static func syncDirectory(_ path: String) throws(CacheError) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .ioError(path: path, reason: errnoText()) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw writeError(errno, path: path) }
    }

    /// The size of a regular file, or `nil` when there is none at `path`.
    static func regularFileSize(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// The modification time of the file at `path`, if any.
    static func modificationDate(_ path: String) -> Date? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
    }

    /// Removes a file; one that is already gone is fine.
    static func removeFile(_ path: String) throws(CacheError) {
        guard unlink(path) == 0 || errno == ENOENT else { throw .ioError(path: path, reason: errnoText()) }
    }

    /// The names in a folder (without `.` and `..`); an absent folder has none.
    static func directoryEntries(_ path: String) -> [(name: String, isDirectory: Bool)] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [(String, Bool)] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            var isDirectory = entry.pointee.d_type == UInt8(DT_DIR)
            if entry.pointee.d_type == UInt8(DT_UNKNOWN) {
                var info = stat()
                isDirectory = stat(path + "/" + name, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
            }
            names.append((name, isDirectory))
        }
        return names
    }

    /// Whether the file system holding `path` (or its folder) has less than 64 KiB left for us.
    static func hasNoSpaceLeft(_ path: String) -> Bool {
        var info = statvfs()
        let folder = (path as NSString).deletingLastPathComponent
        guard statvfs(Posix.exists(path) ? path : folder, &info) == 0 else { return false }
        return UInt64(info.f_bavail) * UInt64(info.f_frsize) < 64 * 1024
    }

    /// Whether `path` names something (a file, a folder, …).
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }
}
