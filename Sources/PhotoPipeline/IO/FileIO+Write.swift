#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileIO {
    /// Writes `bytes` to `path` without ever leaving a partial file there, and without replacing
    /// what is not a regular file:
    ///
    /// - a new or existing regular file is replaced atomically: a temporary file in the same
    ///   folder, fsync, rename. A new file gets `mode` (default 0666 less the umask, as `touch`
    ///   would); an existing one keeps its own mode unless `mode` is given.
    /// - a symbolic link stays: the file it points at is replaced in the same way.
    /// - a character device or a FIFO (`/dev/null`, `/dev/stdout`, a named pipe) is written
    ///   through, like standard output; a FIFO that no program reads from is refused, not waited on.
    /// - a folder, a socket, a block device or a link to nothing is refused.
    /// - Throws: ``PhotoError/diskFull(path:)`` when the file system is full,
    ///   ``PhotoError/cannotWrite(path:reason:)`` for the other failures.
    package static func writeAtomically(_ bytes: [UInt8], to path: String, mode: mode_t? = nil) throws(PhotoError) {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            guard errno == ENOENT else { throw .cannotWrite(path: path, reason: errnoText()) }
            return try replace(path, with: bytes, mode: mode, existingMode: nil)
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            try replace(path, with: bytes, mode: mode, existingMode: info.st_mode & 0o7777)
        case S_IFLNK:
            guard let resolved = realpath(path, nil) else {
                throw .cannotWrite(path: path, reason: "it is a symbolic link to a file that does not exist; remove the link or name another output")
            }
            let target = String(cString: resolved)
            free(resolved)
            try writeAtomically(bytes, to: target, mode: mode)
        case S_IFCHR, S_IFIFO:
            try writeThrough(bytes, to: path)
        default:
            throw .cannotWrite(path: path, reason: kindText(info.st_mode) + "; name a regular file")
        }
    }

    /// Writes `bytes` to standard output (`-o -`).
    package static func writeStandardOutput(_ bytes: [UInt8]) throws(PhotoError) {
        try writeAll(bytes, to: STDOUT_FILENO, path: "standard output")
    }

    /// Writes into an existing device or FIFO, as a shell redirection would.
    private static func writeThrough(_ bytes: [UInt8], to path: String) throws(PhotoError) {
        let fd = open(path, O_WRONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            let reason = errno == ENXIO ? "it is a FIFO (named pipe) that no program is reading from" : errnoText()
            throw .cannotWrite(path: path, reason: reason)
        }
        defer { close(fd) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        try writeAll(bytes, to: fd, path: path)
    }

    /// Replaces the regular file (or creates the file) at `path` through a temporary file and a rename.
    private static func replace(_ path: String, with bytes: [UInt8], mode: mode_t?, existingMode: mode_t?) throws(PhotoError) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        // Created (with the umask applied by open) and registered under one lock, so an
        // interruption either sees the file or prevents it: `removePendingTemporaryFiles` leaves nothing.
        let created = pending.withLock { state -> (fd: Int32, path: String, errno: Int32) in
            guard !state.closed else { return (-1, "", EINTR) }
            while true {
                let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 36)
                let tempPath = folder + "/." + String(decoding: name.utf8.prefix(200), as: UTF8.self) + ".tmp-" + suffix
                let fd = open(tempPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode ?? existingMode ?? 0o666)
                if fd >= 0 { state.paths.insert(tempPath) }
                if fd >= 0 || errno != EEXIST { return (fd, tempPath, errno) }
            }
        }
        guard created.fd >= 0 else {
            throw .cannotWrite(path: path, reason: created.errno == EINTR ? "interrupted" : errnoText(created.errno))
        }
        let fd = created.fd, tempPath = created.path
        var committed = false
        defer {
            if !committed { unlink(tempPath) }
            pending.withLock { _ = $0.paths.remove(tempPath) }
        }
        do {
            defer { close(fd) }
            try writeAll(bytes, to: fd, path: path)
            // The umask must not narrow an explicit mode or the mode an existing file had.
            if let kept = mode ?? existingMode, fchmod(fd, kept) != 0 {
                throw PhotoError.cannotWrite(path: path, reason: errnoText())
            }
            guard fsync(fd) == 0 else { throw failure(errno, path: path) }
        }
        guard rename(tempPath, path) == 0 else { throw failure(errno, path: path) }
        committed = true
    }

    /// Writes all of `bytes` to `fd`.
    private static func writeAll(_ bytes: [UInt8], to fd: Int32, path: String) throws(PhotoError) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, bytes.count - done) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw failure(n < 0 ? errno : EIO, path: path) }
            done += n
        }
    }

    /// The error for a failed write: a full disk has its own.
    private static func failure(_ code: Int32, path: String) -> PhotoError {
        code == ENOSPC || code == EDQUOT ? .diskFull(path: path) : .cannotWrite(path: path, reason: errnoText(code))
    }
}
