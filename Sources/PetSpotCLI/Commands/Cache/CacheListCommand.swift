import ArgumentParser
import Foundation
import PhotoCache
import PhotoCLI

/// `petspot cache list`
struct CacheListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the cached photos, most recently used first (or by size, age, eviction order).",
        discussion: "Rows are printed as they are read, so `petspot cache list --json | head` returns at once.")

    @OptionGroup var cache: CacheOptions

    @Option(help: "Order: last-access (most recent first), lru (next to be evicted first), size (largest first), created (newest first).")
    var sort: CacheSortOrder = .lastAccess

    @Option(parsing: .unconditional, help: "Show at most this many photos.")
    var limit: Int?

    @Flag(help: "Print a JSON array for scripts.")
    var json = false

    func validate() throws {
        if let limit { try NumericOption.check("--limit", limit, in: 0...Int.max) }
    }

    func run() async throws {
        // Read-only: listing creates no cache and needs no write access.
        let photoCache = try cache.openReadOnly()
        let output = StandardOutputStream()
        let root = cache.location().root.path
        var count = 0
        if !json { output.write(EntryRecord.tableHeader + "\n") }
        if let photoCache { try CacheFailure.run { () throws(CacheError) in
            try photoCache.forEachEntry(sortedBy: sort, limit: limit) { entry in
                if json {
                    output.write((count == 0 ? "[\n" : ",\n") + EntryRecord(entry, root: root).jsonArrayElement)
                } else {
                    output.write(EntryRecord.tableRow(entry) + "\n")
                }
                count += 1
                return !output.isClosed
            }
        } }
        if json { output.write(count == 0 ? "[]\n" : "\n]\n") }
        output.flush()
    }
}

extension CacheSortOrder: ExpressibleByArgument {}
