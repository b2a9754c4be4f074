#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Produces the body chunk by chunk: in-memory segments copied, files opened when reached, read
/// in `chunkSize` pieces, checked against the size announced, and closed at their end.
struct SegmentReader {
    private let segments: [Segment]
    private let chunkSize: Int
    private var index = 0
    private var offset: Int64 = 0
    private var file: OpenFile?

    init(segments: [Segment], chunkSize: Int) {
        self.segments = segments
        self.chunkSize = chunkSize
    }

    /// The next chunk (at most `chunkSize` bytes), or `nil` at the end.
    mutating func next() throws(MultipartError) -> [UInt8]? {
        var chunk: [UInt8] = []
        chunk.reserveCapacity(chunkSize)
        while chunk.count < chunkSize, index < segments.count {
            let room = chunkSize - chunk.count
            switch segments[index] {
            case .bytes(let bytes):
                let end = min(bytes.count, Int(offset) + room)
                chunk += bytes[Int(offset)..<end]
                offset = Int64(end)
            case .file(let path, let size):
                if file == nil { file = try OpenFile(path: path, expectedSize: size) }
                let wanted = Int(min(Int64(room), size - offset))
                if wanted > 0 {
                    let piece = try file!.read(wanted)
                    guard piece.count == wanted else {
                        throw .fileChanged(path: path, expected: size, actual: offset + Int64(piece.count))
                    }
                    chunk += piece
                    offset += Int64(wanted)
                }
                if offset == size {
                    try file!.expectEnd()
                    file = nil
                }
            }
            if offset == segments[index].count {
                index += 1
                offset = 0
            }
        }
        return chunk.isEmpty && index >= segments.count ? nil : chunk
    }
}

/// A file part being read; closed when dropped.
private final class OpenFile {
    let path: String
    let expectedSize: Int64
    private let fd: Int32

    init(path: String, expectedSize: Int64) throws(MultipartError) {
        self.path = path
        self.expectedSize = expectedSize
        // Non-blocking open: a FIFO put in the file's place would otherwise block before the check.
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw .unreadableFile(path: path, reason: String(cString: strerror(errno))) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw .notARegularFile(path: path)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        guard Int64(info.st_size) == expectedSize else {
            close(fd)
            throw .fileChanged(path: path, expected: expectedSize, actual: Int64(info.st_size))
        }
    }

    deinit { close(fd) }

    /// Up to `count` bytes; fewer only at the end of the file.
    func read(_ count: Int) throws(MultipartError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + done, count - done) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw .unreadableFile(path: path, reason: String(cString: strerror(errno))) }
            if n == 0 { break }
            done += n
        }
        return done == count ? bytes : Array(bytes[0..<done])
    }

    /// Throws when the file grew past the size announced.
    func expectEnd() throws(MultipartError) {
        var probe: UInt8 = 0
        let n = Glibc.read(fd, &probe, 1)
        if n > 0 {
            var info = stat()
            fstat(fd, &info)
            throw .fileChanged(path: path, expected: expectedSize, actual: Int64(info.st_size))
        }
    }
}
