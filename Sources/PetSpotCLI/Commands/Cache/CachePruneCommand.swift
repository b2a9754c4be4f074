import ArgumentParser
import PhotoCache
import PhotoPipeline
import PhotoCLI

/// `petspot cache prune [--max-cache-size SIZE] [--max-cache-age AGE] [--dry-run]`
struct CachePruneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Evict the least recently used photos beyond a size, and those unused for longer than an age.",
        discussion: """
            Pinned photos (the current photo of a missing or found report) are never evicted. \
            Leftovers of interrupted writes are removed too. The limits are the cache's own: \
            --max-cache-size and --max-cache-age, else their environment variables \
            (PETSPOT_CACHE_MAX_SIZE, PETSPOT_CACHE_MAX_AGE), else 512MiB and 30d. \
            (--max-size and --older-than, their former names, still work.)
            """)

    @OptionGroup var cache: CacheOptions

    /// The former name of --max-cache-size here, kept working (it was in the help).
    @Option(parsing: .unconditional, help: ArgumentHelp("Former name of --max-cache-size.", valueName: "size", visibility: .hidden),
            transform: { text in try CacheOptions.size(text, source: "--max-size") })
    var maxSize: Int?

    /// The former name of --max-cache-age here, kept working (it was in the README).
    @Option(parsing: .unconditional, help: ArgumentHelp("Former name of --max-cache-age.", valueName: "age", visibility: .hidden),
            transform: { text in try CacheOptions.age(text, source: "--older-than") })
    var olderThan: Double?

    @Flag(help: "Say what would be freed without removing anything.")
    var dryRun = false

    @Flag(help: "Print JSON for scripts.")
    var json = false

    func validate() throws {
        if maxSize != nil && cache.maxCacheSize != nil {
            throw ValidationError("--max-size is the former name of --max-cache-size; give one of them.")
        }
        if olderThan != nil && cache.maxCacheAge != nil {
            throw ValidationError("--older-than is the former name of --max-cache-age; give one of them.")
        }
    }

    func run() async throws {
        let photoCache = try cache.open()
        var limits = photoCache.limits
        if let maxSize { limits.maxBytes = maxSize }
        if let olderThan { limits.maxAge = olderThan }
        let report = try CacheFailure.run { () throws(CacheError) in try photoCache.prune(limits: limits, dryRun: dryRun) }
        let record = PruneRecord(report)
        let reason = "beyond \(ByteSizeParser.echo(limits.maxBytes)) or unused for \(AgeParser.string(limits.maxAge))"
        Terminal.out(json ? JSONOutput.string(record) : record.summary(reason: reason))
    }
}
