#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A multipart/form-data body (RFC 7578): text fields and file parts, streamed from memory or
/// straight from files in fixed-size chunks, with its exact length known before the first byte
/// — so a request carries `Content-Length`, never chunked encoding, and no file is copied.
///
/// ```swift
/// var form = MultipartFormData()
/// form.addField(name: "note", value: "Rex")
/// try form.addFile(name: "photo", filename: "dog.jpg", contentType: "image/jpeg", path: "/tmp/dog.jpg")
/// request.headers["Content-Type"] = form.contentType   // multipart/form-data; boundary=…
/// request.headers["Content-Length"] = String(form.contentLength)
/// for try await chunk in form.chunks() { … }
/// ```
///
/// The random boundary (about 178 bits) is checked against every in-memory part and replaced if
/// it occurs there; file parts are not scanned — a given 42-byte boundary turning up in a file
/// by chance has a probability below 2⁻¹⁷⁰ per byte, far below a disk's error rate.
public struct MultipartFormData: Sendable {
    private struct Part: Sendable {
        var name: String
        var filename: String?
        var contentType: String?
        var content: Segment
    }

    public private(set) var boundary: String
    private var parts: [Part] = []
    private let boundaryIsRandom: Bool
    /// Set when a caller's boundary is unusable; streaming throws it.
    private var problem: MultipartError?

    /// - Parameter boundary: `nil` for a random one; a given one must be RFC 2046-valid and
    ///   must not occur in the in-memory parts, or streaming throws.
    public init(boundary: String? = nil) {
        self.boundary = boundary ?? Boundary.random()
        boundaryIsRandom = boundary == nil
        if let boundary, !Boundary.isValid(boundary) { problem = .invalidBoundary(boundary) }
    }

    /// Adds a text field.
    public mutating func addField(name: String, value: String) {
        append(Part(name: name, filename: nil, contentType: nil, content: .bytes(Array(value.utf8))))
    }

    /// Adds a file part held in memory.
    public mutating func addFile(name: String, filename: String, contentType: String, data: [UInt8]) {
        append(Part(name: name, filename: filename, contentType: contentType, content: .bytes(data)))
    }

    /// Adds a file part read from disk while streaming; its size is taken now.
    /// - Throws: ``MultipartError`` when the path is not a readable regular file.
    public mutating func addFile(name: String, filename: String, contentType: String, path: String) throws(MultipartError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw .unreadableFile(path: path, reason: String(cString: strerror(errno)))
        }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notARegularFile(path: path) }
        guard access(path, R_OK) == 0 else { throw .unreadableFile(path: path, reason: String(cString: strerror(errno))) }
        append(Part(name: name, filename: filename, contentType: contentType, content: .file(path: path, size: Int64(info.st_size))))
    }

    /// `multipart/form-data; boundary=…`, the boundary quoted when it holds a character that
    /// is not allowed in a bare header token (space, `( ) , / : = ?`).
    public var contentType: String {
        let needsQuotes = boundary.contains { " (),/:=?".contains($0) }
        return "multipart/form-data; boundary=" + (needsQuotes ? "\"\(boundary)\"" : boundary)
    }

    /// The exact length of the whole body in bytes.
    public var contentLength: Int64 { segments().reduce(0) { $0 + $1.count } }

    /// The body in chunks of at most `chunkSize` bytes; files are read as the chunks are taken.
    public func chunks(chunkSize: Int = 65536) -> MultipartChunks {
        MultipartChunks(segments: segments(), chunkSize: max(1, chunkSize), problem: problem)
    }

    /// The body, synchronously, handed to `sink` chunk by chunk.
    public func write(chunkSize: Int = 65536, to sink: ([UInt8]) throws -> Void) throws {
        if let problem { throw problem }
        var reader = SegmentReader(segments: segments(), chunkSize: max(1, chunkSize))
        while let chunk = try reader.next() { try sink(chunk) }
    }

    // MARK: layout

    private mutating func append(_ part: Part) {
        parts.append(part)
        guard case .bytes(let bytes) = part.content, Self.contains(bytes, Array(boundary.utf8)) else { return }
        if boundaryIsRandom {
            repeat { boundary = Boundary.random() } while parts.contains { Self.holds($0, boundary) }
        } else {
            problem = .boundaryInContent(boundary: boundary)
        }
    }

    /// `--boundary CRLF headers CRLF content CRLF` per part, then `--boundary-- CRLF`.
    private func segments() -> [Segment] {
        var segments: [Segment] = []
        for part in parts {
            var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\(FormDataEscaping.quoted(part.name))"
            if let filename = part.filename {
                head += "; filename=\(FormDataEscaping.quoted(FormDataEscaping.baseName(filename)))"
            }
            if let contentType = part.contentType {
                head += "\r\nContent-Type: \(FormDataEscaping.headerValue(contentType))"
            }
            segments.append(.bytes(Array((head + "\r\n\r\n").utf8)))
            segments.append(part.content)
            segments.append(.bytes([0x0D, 0x0A]))
        }
        segments.append(.bytes(Array("--\(boundary)--\r\n".utf8)))
        return segments
    }

    private static func holds(_ part: Part, _ boundary: String) -> Bool {
        if case .bytes(let bytes) = part.content { return contains(bytes, Array(boundary.utf8)) }
        return false
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        let first = needle[0]
        var index = 0
        while index <= haystack.count - needle.count {
            if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }
}
