/// What can stop a multipart body from being streamed. Each case says what happened and what
/// to do; none is ever sent on the wire as a body whose length lies.
public enum MultipartError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A file part cannot be opened or read.
    case unreadableFile(path: String, reason: String)
    /// A file part is not a regular file (a folder, a device, a FIFO).
    case notARegularFile(path: String)
    /// A file part's size changed after it was added; its announced length would be wrong.
    case fileChanged(path: String, expected: Int64, actual: Int64)
    /// A boundary given by the caller occurs inside one of the in-memory parts.
    case boundaryInContent(boundary: String)
    /// A boundary given by the caller is not 1–70 characters of RFC 2046's alphabet.
    case invalidBoundary(String)

    public var description: String {
        switch self {
        case .unreadableFile(let path, let reason):
            "The file \(path) cannot be read (\(reason)); check that it exists and is readable."
        case .notARegularFile(let path):
            "\(path) is not a regular file; only files can be sent as a file part."
        case .fileChanged(let path, let expected, let actual):
            "The file \(path) changed while it was being sent (\(expected) bytes when added, \(actual) now); send it again once nothing writes to it."
        case .boundaryInContent(let boundary):
            "The boundary \"\(boundary)\" occurs inside a part; let the encoder choose a random one."
        case .invalidBoundary(let boundary):
            "\"\(boundary)\" cannot be a multipart boundary: it must be 1 to 70 characters of letters, digits and '()+_,-./:=? (not ending in a space)."
        }
    }
}
