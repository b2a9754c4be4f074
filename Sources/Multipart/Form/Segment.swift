/// A run of the body: bytes held in memory, or a whole file read while streaming.
enum Segment: Sendable, Equatable {
    case bytes([UInt8])
    case file(path: String, size: Int64)

    var count: Int64 {
        switch self {
        case .bytes(let bytes): Int64(bytes.count)
        case .file(_, let size): size
        }
    }
}
