#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// An exclusive `flock` on `<data dir>/petspot-server.lock`, held for as long as this object
/// lives (the application keeps it until the database is closed). The lock file names the
/// holder's pid, for the message a second server gets.
///
/// The kernel drops the lock when the process dies, however it dies, so a crash never leaves a
/// directory locked.
final class DataDirectoryLock: Sendable {
    private let descriptor: Int32

    static func path(in root: String) -> String { root + "/petspot-server.lock" }

    /// Takes the lock without waiting.
    /// - Throws: ``StorageError/dataDirectoryInUse(path:holder:)`` when another process holds
    ///   it; ``StorageError/dataDirectory(path:reason:)`` when the file cannot be opened.
    init(root: String) throws(StorageError) {
        let path = Self.path(in: root)
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .dataDirectory(path: path, reason: String(cString: strerror(errno))) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let busy = errno == EWOULDBLOCK
            let reason = String(cString: strerror(errno))
            var bytes = [UInt8](repeating: 0, count: 32)
            let count = pread(fd, &bytes, bytes.count, 0)
            close(fd)
            guard busy else { throw .dataDirectory(path: path, reason: "cannot lock it: \(reason)") }
            let pid = String(decoding: bytes.prefix(max(0, count)), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw .dataDirectoryInUse(path: root, holder: pid.isEmpty ? "pid unknown" : "pid \(pid)")
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = pwrite(fd, pid, pid.count, 0)
        descriptor = fd
    }

    deinit {
        close(descriptor)
    }
}
