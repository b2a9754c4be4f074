import ArgumentParser
import PetSpot
import PhotoCache
import PhotoPipeline
import PhotoCLI

/// `petspot cache clear [--include-pinned] [--dry-run]`
struct CacheClearCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear",
        abstract: "Remove every cached photo except the photos of open reports (those too with --include-pinned).",
        discussion: """
            The photos attached to open missing/found reports stay unless --include-pinned says \
            otherwise; the reports that would lose their photo are named first (and by --dry-run), \
            and such a report then asks for its photo again before it can be sent.
            """)

    @OptionGroup var cache: CacheOptions

    @Flag(name: .customLong("include-pinned"), help: "Also remove the photos of open missing/found reports, and their pins.")
    var includePinned = false

    /// The old spelling, which removed open reports' photos without saying so: refused with the new one.
    @Flag(name: .customLong("all"), help: .hidden)
    var all = false

    @Flag(help: "Say what would be freed (and which reports would lose their photo) without removing anything.")
    var dryRun = false

    @Flag(help: "Print JSON for scripts.")
    var json = false

    func validate() throws {
        if all {
            throw ValidationError("--all no longer removes the photos of open reports: `cache clear` removes every other photo; "
                + "add --include-pinned to remove those too.")
        }
    }

    func run() async throws {
        let photoCache = try cache.open()
        // Which open reports lose their photo, named before anything goes.
        let losing = includePinned ? ReportFlow.allCases.filter { flow in
            ((try? photoCache.currentAttachment(for: flow.cacheFlow)) ?? nil) != nil
        } : []
        let report = try CacheFailure.run { () throws(CacheError) in
            try photoCache.clear(includingPinned: includePinned, dryRun: dryRun)
        }
        let record = PruneRecord(report)
        if json {
            Terminal.out(JSONOutput.string(record))
            return
        }
        for flow in losing {
            Terminal.out("\(dryRun ? "Would remove" : "Removed") the photo of the open \(flow.reportName): it needs a photo again "
                + "(`petspot report \(flow.rawValue) --photo FILE`) before it is sent.")
        }
        var text = record.summary(reason: "")
        if !includePinned {
            let pinned = try CacheFailure.run { () throws(CacheError) in try photoCache.stats() }
            if pinned.pinnedCount > 0 {
                text += " Kept \(pinned.pinnedCount) pinned photo\(pinned.pinnedCount == 1 ? "" : "s") of open reports (--include-pinned removes \(pinned.pinnedCount == 1 ? "it" : "them") too)."
            }
        }
        Terminal.out(text)
    }
}
