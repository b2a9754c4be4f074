#if canImport(Glibc)
import Glibc
#endif
import NIOCore
import NIOPosix

/// A stored photo open for reading: the descriptor keeps the file readable while a download
/// runs, even if the photo is removed meanwhile. Reads run on NIO's thread pool, not on the
/// event loop or the cooperative pool.
final class DiskPhotoReader: StoredPhotoReader {
    let size: Int
    private let descriptor: Int32
    private let path: String

    /// - Returns: `nil` when there is no regular file at `path`.
    init?(path: String) throws {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw StorageError.photoIO(path: path, reason: String(cString: strerror(errno)))
        }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            return nil
        }
        self.descriptor = fd
        self.size = Int(info.st_size)
        self.path = path
    }

    deinit {
        close(descriptor)
    }

    func read(_ range: Range<Int>, chunkSize: Int, into consume: (ByteBuffer) async throws -> Void) async throws {
        precondition(range.lowerBound >= 0 && range.upperBound <= size && chunkSize > 0)
        var offset = range.lowerBound
        while offset < range.upperBound {
            let count = min(chunkSize, range.upperBound - offset)
            let chunk = try await NIOThreadPool.singleton.runIfActive { [descriptor, path, offset] in
                try Self.read(descriptor, path: path, count: count, at: offset)
            }
            offset += chunk.readableBytes
            try await consume(chunk)
        }
    }

    private static func read(_ fd: Int32, path: String, count: Int, at offset: Int) throws -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: count)
        try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { target in
            var done = 0
            while done < count {
                let got = pread(fd, target.baseAddress! + done, count - done, off_t(offset + done))
                if got < 0 && errno == EINTR { continue }
                guard got > 0 else {
                    // The file shrank under us (it never should: photos are written once).
                    let reason = got == 0 ? "the file ended early" : String(cString: strerror(errno))
                    throw StorageError.photoIO(path: path, reason: reason)
                }
                done += got
            }
            return done
        }
        return buffer
    }
}
