import PhotoCache
import PhotoPipeline

/// What `cache prune` or `cache clear` freed (or would free), for people and scripts.
struct PruneRecord: Encodable {
    struct Removed: Encodable {
        var key: String
        var path: String
        var bytes: Int
        var lastAccess: String
    }

    struct Leftover: Encodable {
        var path: String
        var bytes: Int
        var kind: String
    }

    var dryRun: Bool
    var freedBytes: Int
    var removedEntries: Int
    var removedBytes: Int
    var leftoverFiles: Int
    var leftoverBytes: Int
    var removed: [Removed]
    var leftovers: [Leftover]

    init(_ report: PruneReport) {
        dryRun = report.dryRun
        freedBytes = report.freedBytes
        removedEntries = report.evicted.count
        removedBytes = report.evictedBytes
        leftoverFiles = report.leftovers.count
        leftoverBytes = report.leftoverBytes
        removed = report.evicted.map {
            Removed(key: $0.key, path: $0.path, bytes: $0.bytes, lastAccess: TimestampText.iso8601($0.lastAccess))
        }
        leftovers = report.leftovers.map { Leftover(path: $0.path, bytes: $0.bytes, kind: $0.kind.rawValue) }
    }

    /// "Freed 12.3 MiB: 42 photos (…), 2 leftover files." or "Would free …".
    func summary(reason: String) -> String {
        guard removedEntries + leftoverFiles > 0 else { return "Nothing to free\(reason.isEmpty ? "" : " (\(reason))")." }
        var parts: [String] = []
        if removedEntries > 0 {
            parts.append("\(removedEntries) photo\(removedEntries == 1 ? "" : "s") (\(ByteFormat.string(removedBytes)))"
                         + (reason.isEmpty ? "" : " \(reason)"))
        }
        if leftoverFiles > 0 {
            parts.append("\(leftoverFiles) leftover file\(leftoverFiles == 1 ? "" : "s") of interrupted writes (\(ByteFormat.string(leftoverBytes)))")
        }
        let verb = dryRun ? "Would free" : "Freed"
        let tail = dryRun ? " Nothing was removed (--dry-run)." : ""
        return "\(verb) \(ByteFormat.string(freedBytes)): \(parts.joined(separator: "; "))." + tail
    }
}
