import ArgumentParser
import Foundation
import PhotoCache
import PhotoCLI

/// `petspot report discard [--flow missing|found] [--json]`
struct ReportDiscardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "discard",
        abstract: "Throw a report draft away and release its photo.",
        discussion: "The photo stays in the cache, unpinned, until it is evicted or `cache clear` removes it.")

    @Option(help: "The report: missing or found (default: the only one with a draft).")
    var flow: ReportFlow?

    @Flag(help: "Print JSON for scripts.")
    var json = false

    @OptionGroup(title: "Drafts")
    var state: StateOptions

    @OptionGroup(title: "Photo cache")
    var cache: CacheOptions

    /// What `discard` did, for scripts.
    private struct Record: Encodable {
        var flow: String
        var path: String
        var draftRemoved: Bool
        var photoReleased: Bool
    }

    func run() async throws {
        let flow = try ReportFlowChoice.resolve(self.flow, store: state.store(), command: "discard")
        let store = state.store()
        // Under the draft's lock: with the wizard's questions open elsewhere this is refused
        // (exit 75), as its next save would bring the draft back.
        let lock = try DraftFailure.run { () throws(DraftStoreError) in try store.acquireLock(flow, for: .command) }
        defer { lock.release() }
        let removed = try DraftFailure.run { () throws(DraftStoreError) in try store.discard(flow) }
        var released = false
        if FileManager.default.fileExists(atPath: cache.location().root.path) {
            let photoCache = try cache.open()
            released = try CacheFailure.run { () throws(CacheError) in
                let pinned = try photoCache.currentAttachment(for: flow.cacheFlow) != nil
                try photoCache.unpin(flow: flow.cacheFlow)
                return pinned
            }
        }
        let path = store.url(for: flow).path
        if json {
            Terminal.out(JSONOutput.string(Record(flow: flow.rawValue, path: path, draftRemoved: removed, photoReleased: released)))
            return
        }
        let name = flow.reportName
        switch (removed, released) {
        case (false, false):
            Terminal.out("There was no \(name) draft and no photo pinned for it; nothing to discard.")
        case (true, false):
            Terminal.out("Discarded the \(name) draft (\(path)); it had no photo.")
        case (_, true):
            Terminal.out((removed ? "Discarded the \(name) draft (\(path)) and released its photo"
                                  : "There was no \(name) draft; released the photo pinned for it")
                + ": the photo stays in the cache until it is evicted or `petspot cache clear` removes it.")
        }
    }
}
