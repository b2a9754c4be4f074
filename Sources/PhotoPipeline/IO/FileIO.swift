#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// Whole-file reads with a size limit, and atomic writes (temporary file, fsync, rename).
public enum FileIO {
    /// Reads a whole file, refusing it (without reading it) when it is larger than `limit`.
    public static func read(_ path: String, limit: Int = .max) throws(PhotoError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadableFile(path: path, reason: errnoText()) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadableFile(path: path, reason: errnoText()) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw .unreadableFile(path: path, reason: (info.st_mode & S_IFMT) == S_IFDIR ? "it is a folder, not a file" : "it is not a regular file")
        }
        let size = Int(info.st_size)
        if size > limit { throw .fileTooLarge(bytes: size, limit: limit) }
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + done, size - done) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw .unreadableFile(path: path, reason: errnoText()) }
            if n == 0 { break }
            done += n
        }
        if done < size { bytes.removeSubrange(done...) }
        return bytes
    }

    /// Writes `bytes` to `path` atomically: a temporary file in the same folder, fsync, rename.
    /// A failure or interruption leaves no partial file at `path`.
    public static func writeAtomically(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644) throws(PhotoError) {
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        var template = Array(((directory.isEmpty ? "." : directory) + "/.\(name).tmp-XXXXXX").utf8CString)
        // Created and registered under one lock, so an interruption either sees the file or
        // prevents it: `removePendingTemporaryFiles` leaves nothing behind.
        let created = pending.withLock { state -> (fd: Int32, errno: Int32) in
            guard !state.closed else { return (-1, EINTR) }
            let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            if fd >= 0 {
                state.paths.insert(String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
            return (fd, errno)
        }
        let fd = created.fd
        guard fd >= 0 else {
            throw .cannotWrite(path: path, reason: created.errno == EINTR ? "interrupted" : String(cString: strerror(created.errno)))
        }
        let tempPath = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var committed = false
        defer {
            if !committed { unlink(tempPath) }
            pending.withLock { _ = $0.paths.remove(tempPath) }
        }
        do {
            defer { close(fd) }
            var done = 0
            while done < bytes.count {
                let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, bytes.count - done) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw PhotoError.cannotWrite(path: path, reason: errnoText()) }
                done += n
            }
            guard fchmod(fd, mode) == 0, fsync(fd) == 0 else { throw PhotoError.cannotWrite(path: path, reason: errnoText()) }
        }
        guard rename(tempPath, path) == 0 else { throw .cannotWrite(path: path, reason: errnoText()) }
        committed = true
    }

    /// Temporary files of writes in progress, so an interrupted process can remove them.
    private struct PendingFiles {
        var paths: Set<String> = []
        /// Set once the process is shutting down: no new temporary file may be created.
        var closed = false
    }

    private static let pending = Mutex(PendingFiles())

    /// Removes the temporary files of writes still in progress and refuses new ones from then on
    /// (called on SIGINT/SIGTERM, before the process exits).
    public static func removePendingTemporaryFiles() {
        pending.withLock { state in
            state.closed = true
            for path in state.paths { unlink(path) }
            state.paths.removeAll()
        }
    }

    static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}
