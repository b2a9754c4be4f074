#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// Whole-file reads with a size limit, and safe writes (see ``writeAtomically(_:to:mode:)``).
package enum FileIO {
    /// Reads a whole file, refusing it (without reading it) when it is larger than `limit`.
    ///
    /// Only regular files are read: a folder, a FIFO or a device (`/dev/zero`) is refused at once.
    /// The file is opened without blocking, so a FIFO nobody writes to cannot hang the caller.
    package static func read(_ path: String, limit: Int = .max) throws(PhotoError) -> [UInt8] {
        try PhotoFile(path, limit: limit).readAll()
    }

    /// Reads standard input to its end (`-` as an input file), refusing more than `limit` bytes.
    package static func readStandardInput(limit: Int = .max) throws(PhotoError) -> [UInt8] {
        var info = stat()
        if fstat(STDIN_FILENO, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) > limit {
            throw .fileTooLarge(bytes: Int(info.st_size), limit: limit)
        }
        return try readToEnd(STDIN_FILENO, path: "standard input", capacity: 1 << 16, limit: limit)
    }

    /// Reads `fd` until the end of file; a regular file's first `capacity` bytes only (its size
    /// when opened), a stream's up to `limit` (more throws ``PhotoError/fileTooLarge(bytes:limit:)``).
    private static func readToEnd(_ fd: Int32, path: String, capacity: Int, limit: Int,
                                  grows: Bool = true) throws(PhotoError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: capacity)
        var done = 0
        while true {
            if done == bytes.count {
                guard grows else { break }
                bytes.append(contentsOf: repeatElement(0, count: max(bytes.count, 1 << 16)))
            }
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw .unreadableFile(path: path, reason: errnoText()) }
            if n == 0 { break }
            done += n
            if done > limit { throw .fileTooLarge(bytes: done, limit: limit) }
        }
        bytes.removeSubrange(done...)
        return bytes
    }

    /// "it is a folder", "it is a FIFO (named pipe)", … for messages about what a path names.
    static func kindText(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "it is a folder"
        case S_IFIFO: "it is a FIFO (named pipe)"
        case S_IFCHR: "it is a character device"
        case S_IFBLK: "it is a block device"
        case S_IFSOCK: "it is a socket"
        case S_IFLNK: "it is a symbolic link"
        default: "it is not a regular file"
        }
    }

    /// Temporary files of writes in progress, so an interrupted process can remove them.
    struct PendingFiles {
        var paths: Set<String> = []
        /// Set once the process is shutting down: no new temporary file may be created.
        var closed = false
    }

    static let pending = Mutex(PendingFiles())

    /// Removes the temporary files of writes still in progress and refuses new ones from then on
    /// (called on SIGINT/SIGTERM, before the process exits).
    package static func removePendingTemporaryFiles() {
        pending.withLock { state in
            state.closed = true
            for path in state.paths { unlink(path) }
            state.paths.removeAll()
        }
    }

    package static func errnoText(_ code: Int32 = errno) -> String {
        String(cString: strerror(code))
    }
}
