import ArgumentParser
import PhotoCache
import PhotoPipeline

/// `petspot cache clear [--all] [--dry-run]`
struct CacheClearCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear",
        abstract: "Remove every cached photo except the current photos of open reports (all of them with --all).")

    @OptionGroup var cache: CacheOptions

    @Flag(help: "Also remove the pinned photos of open missing/found reports, and their pins.")
    var all = false

    @Flag(help: "Say what would be freed without removing anything.")
    var dryRun = false

    @Flag(help: "Print JSON for scripts.")
    var json = false

    func run() async throws {
        let photoCache = try cache.open()
        let report = try CacheFailure.run { () throws(CacheError) in
            try photoCache.clear(includingPinned: all, dryRun: dryRun)
        }
        let record = PruneRecord(report)
        if json {
            Terminal.out(JSONOutput.string(record))
            return
        }
        var text = record.summary(reason: "")
        if !all {
            let pinned = try CacheFailure.run { () throws(CacheError) in try photoCache.stats() }
            if pinned.pinnedCount > 0 {
                text += " Kept \(pinned.pinnedCount) pinned photo\(pinned.pinnedCount == 1 ? "" : "s") of open reports (--all removes \(pinned.pinnedCount == 1 ? "it" : "them") too)."
            }
        }
        Terminal.out(text)
    }
}
