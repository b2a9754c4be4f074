import ArgumentParser
import PhotoCache
import PhotoPipeline

/// `petspot cache prune [--max-size SIZE] [--older-than AGE] [--dry-run]`
struct CachePruneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Evict the least recently used photos beyond a size, and those unused for longer than an age.",
        discussion: """
            Pinned photos (the current photo of a missing or found report) are never evicted. \
            Leftovers of interrupted writes are removed too. Without options, the cache's own limits \
            apply (--max-cache-size / --max-cache-age, their environment variables, or 512MiB and 30d).
            """)

    @OptionGroup var cache: CacheOptions

    @Option(help: ArgumentHelp("Keep at most this much, e.g. 500MB or 1.2GiB.", valueName: "size"),
            transform: { text in try CacheOptions.size(text, source: "--max-size") })
    var maxSize: Int?

    @Option(help: ArgumentHelp("Evict photos not used for longer than this, e.g. 30d, 12h.", valueName: "age"),
            transform: { text in try CacheOptions.age(text, source: "--older-than") })
    var olderThan: Double?

    @Flag(help: "Say what would be freed without removing anything.")
    var dryRun = false

    @Flag(help: "Print JSON for scripts.")
    var json = false

    func run() async throws {
        let photoCache = try cache.open()
        var limits = photoCache.limits
        if let maxSize { limits.maxBytes = maxSize }
        if let olderThan { limits.maxAge = olderThan }
        let report = try CacheFailure.run { () throws(CacheError) in try photoCache.prune(limits: limits, dryRun: dryRun) }
        let record = PruneRecord(report)
        let reason = "beyond \(ByteFormat.string(limits.maxBytes)) or unused for \(AgeParser.string(limits.maxAge))"
        Terminal.out(json ? JSONOutput.string(record) : record.summary(reason: reason))
    }
}
