#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The lock a read-modify-write of one flow's draft holds, across processes (`flock(2)` on
/// `drafts/<flow>.lock`, as the photo cache locks its index), so two commands filling the same
/// draft at once both keep their fields. The kernel releases it when a process dies.
struct DraftLock {
    let path: String

    /// Runs `body` holding the lock, creating the lock file (0600) when needed.
    /// - Throws: ``DraftStoreError/cannotWrite(path:reason:)`` when the lock cannot be taken, or
    ///   what `body` throws.
    func withLock<T>(_ body: () throws -> T) throws -> T {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw DraftStoreError.cannotWrite(path: path, reason: "cannot open the draft's lock file: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw DraftStoreError.cannotWrite(path: path, reason: "cannot lock the draft: \(String(cString: strerror(errno)))")
            }
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }
}
