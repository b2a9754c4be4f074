/// A single `Range: bytes=…` request (RFC 9110 §14), resolved against a representation's length.
///
/// Several ranges in one header are answered with the whole representation (200), which the
/// RFC allows; a malformed header is ignored the same way.
enum ByteRange: Equatable {
    /// Serve these bytes with 206.
    case partial(ClosedRange<Int>)
    /// No byte of the range exists: 416 with `Content-Range: bytes */length`.
    case unsatisfiable
    /// Serve everything with 200.
    case whole

    init(header: String?, length: Int) {
        guard let header, header.hasPrefix("bytes="), !header.contains(",") else { self = .whole; return }
        let spec = header.dropFirst("bytes=".count)
        guard let dash = spec.firstIndex(of: "-") else { self = .whole; return }
        let first = spec[..<dash].trimmingWhitespace(), last = spec[spec.index(after: dash)...].trimmingWhitespace()
        if first.isEmpty {
            // Suffix: the last N bytes.
            guard let count = Int(last), count >= 0 else { self = .whole; return }
            self = count == 0 || length == 0 ? .unsatisfiable : .partial(max(0, length - count)...(length - 1))
            return
        }
        guard let start = Int(first), start >= 0 else { self = .whole; return }
        var end = length - 1
        if !last.isEmpty {
            guard let requested = Int(last), requested >= start else { self = .whole; return }
            end = min(requested, length - 1)
        }
        self = start < length ? .partial(start...end) : .unsatisfiable
    }
}
