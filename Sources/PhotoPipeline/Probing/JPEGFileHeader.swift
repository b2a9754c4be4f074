/// The part of a JPEG file up to and including its first scan's header: everything the probe
/// reads (frame size, EXIF, ICC), without reading the entropy-coded data behind it.
enum JPEGFileHeader {
    /// The first read; doubled until the first scan's header is inside it.
    static let firstRead = 64 * 1024

    /// The header bytes when `file` is a JPEG whose segments reach a scan; `nil` for any other
    /// file, or a JPEG whose header is damaged or cut short (read whole, it gets the same errors
    /// as bytes in memory do).
    static func read(_ file: PhotoFile) throws(PhotoError) -> [UInt8]? {
        var prefix = try file.read(0..<min(firstRead, file.size))
        guard MediaSniffer.sniff(prefix) == .jpeg else { return nil }
        while true {
            guard let end = try? JPEGMarkerWalk.walk(prefix, mode: .tolerant) else { return nil }
            if case .scan(let scan) = end { return Array(prefix[..<scan.body.upperBound]) }
            guard prefix.count < file.size else { return nil }
            prefix += try file.read(prefix.count..<min(prefix.count * 2, file.size))
        }
    }
}
