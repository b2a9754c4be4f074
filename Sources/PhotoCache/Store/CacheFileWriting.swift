#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An `errno` value from a failed system call.
struct SystemErrno: Error, Sendable, Equatable {
    let code: Int32
}

/// The `write(2)` call the cache's file writer goes through, so that a test can make the disk
/// "fill up" where it cannot mount a small file system.
protocol CacheFileWriting: Sendable {
    /// Writes some of `buffer` to `fd`.
    /// - Returns: the number of bytes written, or the `errno` of the failure.
    func write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Result<Int, SystemErrno>
}

/// The real `write(2)`.
struct SystemFileWriter: CacheFileWriting {
    func write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Result<Int, SystemErrno> {
        let written = Glibc.write(fd, buffer.baseAddress, buffer.count)
        return written >= 0 ? .success(written) : .failure(SystemErrno(code: errno))
    }
}
