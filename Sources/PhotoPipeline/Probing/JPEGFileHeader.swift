/// The part of a JPEG file up to and including its first scan's header: everything the probe
/// reads (frame size, EXIF, ICC), without reading the entropy-coded data behind it.
enum JPEGFileHeader {
    /// The first read; doubled until the first scan's header is inside it.
    static let firstRead = 64 * 1024

    /// The header bytes when `file` is a JPEG whose segments reach a scan; `nil` for any other
    /// file, or a JPEG whose header is damaged or cut short (read whole, it gets the same errors
    /// as bytes in memory do).
    static func read(_ file: PhotoFile) throws(PhotoError) -> [UInt8]? {
        var length = min(firstRead, file.size)
        while true {
            let prefix = try file.read(0..<length)
            guard MediaSniffer.sniff(prefix) == .jpeg else { return nil }
            guard let end = try? JPEGMarkerWalk.walk(prefix, mode: .tolerant) else { return nil }
            if case .scan(let scan) = end { return Array(prefix[..<scan.body.upperBound]) }
            guard length < file.size else { return nil }
            length = min(length * 2, file.size)
        }
    }
}
