#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The one lock that every change to the cache's files and index holds, across threads (a mutex)
/// and across processes (`flock(2)` on `<cache>/lock`).
///
/// Under the lock, every index row has its complete file: a file is renamed into `photos/` and
/// its row inserted in one locked section, and a row is deleted and its file unlinked in another.
/// So a sweeper holding the lock can tell an orphan file from one whose row is about to be
/// inserted. The kernel releases the lock of a process that dies, even by SIGKILL.
final class CacheLock: Sendable {
    private let fd: Int32
    private let path: String
    private let mutex = NSLock()

    /// Opens (creating it if needed) the lock file; `readOnly` opens an existing one for reading
    /// only (`flock` needs no write access), for a cache this process may not change.
    init(path: String, readOnly: Bool = false) throws(CacheError) {
        let fd = readOnly ? open(path, O_RDONLY | O_CLOEXEC) : open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw readOnly ? .ioError(path: path, reason: "cannot open the cache's lock file: \(Posix.errnoText())")
                : Posix.writeError(errno, path: path)
        }
        self.fd = fd
        self.path = path
    }

    deinit {
        close(fd)
    }

    /// Runs `body` holding the lock.
    /// - Throws: what `body` throws, or ``CacheError/ioError(path:reason:)`` when locking fails.
    func withLock<T>(_ body: () throws -> T) throws -> T {
        mutex.lock()
        defer { mutex.unlock() }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw CacheError.ioError(path: path, reason: "cannot lock the cache: \(Posix.errnoText())")
            }
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }
}
