import ArgumentParser
import PhotoCache
import PhotoPipeline
import PhotoCLI

/// `petspot cache stats`
struct CacheStatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Show how many photos the cache holds, their size against the limit, the oldest and newest, and the pinned ones.")

    @OptionGroup var cache: CacheOptions

    @Flag(help: "Print JSON for scripts.")
    var json = false

    func run() async throws {
        // Read-only: looking creates no cache and needs no write access.
        let stats: CacheStats
        if let photoCache = try cache.openReadOnly() {
            stats = try CacheFailure.run { () throws(CacheError) in try photoCache.stats() }
        } else {
            stats = CacheStats(entryCount: 0, totalBytes: 0, limits: try cache.limits(), oldestCreated: nil,
                               newestCreated: nil, leastRecentAccess: nil, pinned: [:])
        }
        let record = StatsRecord(stats, location: cache.location())
        Terminal.out(json ? JSONOutput.string(record) : record.humanText)
    }
}

/// `cache stats` for people and scripts.
struct StatsRecord: Encodable {
    var path: String
    var chosenBy: String
    var entries: Int
    var totalBytes: Int
    var maxBytes: Int
    var maxAgeSeconds: Double
    var oldestCreated: String?
    var newestCreated: String?
    var leastRecentAccess: String?
    var pinnedEntries: Int
    var pinnedBytes: Int
    var pinned: [String: EntryRecord]

    init(_ stats: CacheStats, location: CacheLocation) {
        path = location.root.path
        chosenBy = location.source.rawValue
        entries = stats.entryCount
        totalBytes = stats.totalBytes
        maxBytes = stats.limits.maxBytes
        maxAgeSeconds = stats.limits.maxAge
        oldestCreated = stats.oldestCreated.map(TimestampText.iso8601)
        newestCreated = stats.newestCreated.map(TimestampText.iso8601)
        leastRecentAccess = stats.leastRecentAccess.map(TimestampText.iso8601)
        pinnedEntries = stats.pinnedCount
        pinnedBytes = stats.pinnedBytes
        pinned = Dictionary(uniqueKeysWithValues: stats.pinned.map { ($0.key.rawValue, EntryRecord($0.value, root: location.root.path)) })
        self.stats = stats
    }

    private let stats: CacheStats
    private enum CodingKeys: String, CodingKey {
        case path, chosenBy, entries, totalBytes, maxBytes, maxAgeSeconds, oldestCreated, newestCreated,
             leastRecentAccess, pinnedEntries, pinnedBytes, pinned
    }

    var humanText: String {
        var lines: [String] = []
        func add(_ label: String, _ value: String) {
            lines.append((label + ":").padding(toLength: 12, withPad: " ", startingAt: 0) + value)
        }
        let percent = maxBytes > 0 ? Double(totalBytes) * 100 / Double(maxBytes) : 0
        add("location", "\(path) (from \(chosenBy))")
        add("entries", "\(entries)")
        add("size", "\(ByteFormat.string(totalBytes)) of \(ByteSizeParser.echo(maxBytes)) (\(String(format: "%.0f", percent))%)")
        add("max age", "\(AgeParser.string(maxAgeSeconds)) unused")
        add("oldest", stats.oldestCreated.map(TimestampText.local) ?? "-")
        add("newest", stats.newestCreated.map(TimestampText.local) ?? "-")
        add("least used", stats.leastRecentAccess.map(TimestampText.local).map { "\($0) (next to be evicted)" } ?? "-")
        let flows = CacheFlow.allCases.compactMap { flow in
            stats.pinned[flow].map { "\(flow.rawValue): \($0.key.prefix(12))" }
        }
        add("pinned", pinnedEntries == 0 ? "none"
            : "\(pinnedEntries) (\(ByteFormat.string(pinnedBytes))) — \(flows.joined(separator: ", "))")
        return lines.joined(separator: "\n")
    }
}
