#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A temporary file in the data directory's `tmp/` that an incoming photo part is streamed
/// into, so a body is never held in memory whole. Removed when dropped.
final class UploadFile {
    let path: String
    private var fd: Int32
    private(set) var byteCount = 0

    /// Creates an empty file with a random name (mode 0600).
    init(in directory: String) throws(StorageError) {
        var template = Array((directory + "/upload-XXXXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw .unavailable(path: directory, reason: String(cString: strerror(errno))) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        self.fd = fd
        path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit {
        if fd >= 0 { close(fd) }
        unlink(path)
    }

    /// Appends bytes.
    func append(_ bytes: UnsafeRawBufferPointer) throws(StorageError) {
        var done = 0
        while done < bytes.count {
            let n = write(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw .unavailable(path: path, reason: n == 0 ? "nothing written" : String(cString: strerror(errno))) }
            done += n
        }
        byteCount += bytes.count
    }

    /// Flushes the file to the disk (where a full disk may only now say so).
    func sync() throws(StorageError) {
        guard fsync(fd) == 0 else { throw .unavailable(path: path, reason: String(cString: strerror(errno))) }
    }

    /// The first `count` bytes (for sniffing).
    func prefix(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: min(count, byteCount))
        let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        return Array(bytes.prefix(max(0, n)))
    }
}
