#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A regular file opened for reading in place: the header is read from it, and a JPEG decoder
/// streams the rest through a small window, so the whole file is never in memory at once (an
/// 18 MP q100 JPEG is 16 MB that would sit beside libjpeg's coefficient buffers).
///
/// Opened as ``FileIO/read(_:limit:)`` opens: regular files only, without blocking, refused by
/// size before anything is read. The size is the one at opening; a file that shrinks while it is
/// read is reported as such (``checkUnchanged()``).
package final class PhotoFile {
    package let path: String
    let descriptor: Int32
    /// Bytes, when opened.
    package let size: Int

    package init(_ path: String, limit: Int = .max) throws(PhotoError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { throw .unreadableFile(path: path, reason: FileIO.errnoText()) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let reason = FileIO.errnoText()
            close(fd)
            throw .unreadableFile(path: path, reason: reason)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw .unreadableFile(path: path, reason: FileIO.kindText(info.st_mode) + ", not a regular file")
        }
        let size = Int(info.st_size)
        if size > limit {
            close(fd)
            throw .fileTooLarge(bytes: size, limit: limit)
        }
        self.path = path
        self.descriptor = fd
        self.size = size
    }

    deinit { close(descriptor) }

    /// The bytes in `range` (within the size at opening).
    /// - Throws: ``PhotoError/unreadableFile(path:reason:)`` when reading fails or the file is
    ///   shorter now than when it was opened.
    func read(_ range: Range<Int>) throws(PhotoError) -> [UInt8] {
        var failure: PhotoError?
        // Not zeroed first: every byte is read, or the rest is zeroed where the file ended early.
        let bytes = [UInt8](unsafeUninitializedCapacity: range.count) { buffer, count in
            do throws(PhotoError) { try read(range, into: buffer) } catch { failure = error }
            count = range.count
        }
        if let failure { throw failure }
        return bytes
    }

    /// As ``read(_:)``, into the first `range.count` bytes of `buffer` (a window read again and again
    /// without new memory each time); past an early end they are zeroed.
    func read(_ range: Range<Int>, into buffer: UnsafeMutableBufferPointer<UInt8>) throws(PhotoError) {
        precondition(range.count <= buffer.count, "a read of \(range.count) bytes into \(buffer.count)")
        var done = 0
        defer { (buffer.baseAddress! + done).initialize(repeating: 0, count: range.count - done) }
        while done < range.count {
            let n = pread(descriptor, buffer.baseAddress! + done, range.count - done, off_t(range.lowerBound + done))
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw .unreadableFile(path: path, reason: FileIO.errnoText()) }
            if n == 0 {
                try checkUnchanged()
                return
            }
            done += n
        }
    }

    /// The whole file, as it was when opened.
    package func readAll() throws(PhotoError) -> [UInt8] { try read(0..<size) }

    /// Throws when the file is now shorter than when it was opened (it was being rewritten).
    func checkUnchanged() throws(PhotoError) {
        var info = stat()
        if fstat(descriptor, &info) == 0, Int(info.st_size) < size {
            throw .unreadableFile(path: path, reason: "it shrank from \(size) to \(info.st_size) bytes while it was read "
                                  + "(is something still writing it?); try again once the file is complete")
        }
    }
}
