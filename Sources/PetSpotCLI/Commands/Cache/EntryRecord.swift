import PhotoCache
import PhotoPipeline
import PhotoCLI

/// One cache entry in `cache list --json` and `cache stats --json`.
struct EntryRecord: Encodable {
    var key: String
    var path: String
    var mimeType: String
    var bytes: Int
    var width: Int
    var height: Int
    var sourceFileName: String?
    var sourceDigest: String?
    var capturedAt: String?
    var created: String
    var lastAccess: String
    var pins: [String]

    init(_ entry: CacheEntry, root: String) {
        key = entry.key
        path = root + "/" + entry.path
        mimeType = entry.mimeType
        bytes = entry.bytes
        width = entry.width
        height = entry.height
        sourceFileName = entry.sourceFileName
        sourceDigest = entry.sourceDigest
        capturedAt = entry.capturedAt?.iso8601
        created = TimestampText.iso8601(entry.created)
        lastAccess = TimestampText.iso8601(entry.lastAccess)
        pins = entry.pins.map(\.rawValue)
    }

    /// One line of the `cache list` table.
    static func tableRow(_ entry: CacheEntry) -> String {
        let columns = [
            pad(String(entry.key.prefix(12)), 12),
            pad(ByteFormat.string(entry.bytes), 9, right: true),
            pad("\(entry.width)×\(entry.height)", 11),
            pad(entry.mimeType, 10),
            pad(TimestampText.local(entry.lastAccess), 19),
            pad(entry.pins.isEmpty ? "-" : entry.pins.map(\.rawValue).joined(separator: ","), 14),
            Terminal.escaped(entry.sourceFileName ?? "-"),
        ]
        return columns.joined(separator: "  ")
    }

    /// The header of the `cache list` table.
    static let tableHeader = [
        pad("KEY", 12), pad("SIZE", 9, right: true), pad("PIXELS", 11), pad("TYPE", 10),
        pad("LAST USED", 19), pad("PINNED", 14), "SOURCE",
    ].joined(separator: "  ")

    private static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.count))
        return right ? fill + text : text + fill
    }
}
