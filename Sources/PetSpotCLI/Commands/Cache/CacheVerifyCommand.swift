import ArgumentParser
import PhotoCache
import PhotoCLI

/// `petspot cache verify [--repair]`
struct CacheVerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Re-hash every cached photo and compare it with the index.",
        discussion: """
            Exits 65 when entries point at missing or damaged files. --repair drops those entries, \
            removes damaged, orphaned and leftover files, and rebuilds the index from the files when \
            the index itself is missing or unreadable.
            """)

    @OptionGroup var cache: CacheOptions

    @Flag(help: "Fix what is found: drop broken entries, remove bad and leftover files, rebuild a damaged index.")
    var repair = false

    @Flag(help: "Print JSON for scripts.")
    var json = false

    func run() async throws {
        let location = cache.location()
        let limits = try cache.limits()
        let repair = repair
        if let note = cache.locationNote() { Terminal.error(note) }
        let report = try CacheFailure.run { () throws(CacheError) -> VerifyReport in
            let photoCache: DiskPhotoCache
            do throws(CacheError) {
                if repair {
                    photoCache = try DiskPhotoCache(location: location, limits: limits)
                } else if let existing = try DiskPhotoCache.openReadOnly(location: location, limits: limits) {
                    // Read-only: verifying without --repair changes nothing and needs no write access.
                    photoCache = existing
                } else {
                    return VerifyReport(checkedEntries: 0, issues: [], leftovers: [], repaired: false)
                }
            } catch .indexCorrupt where repair {
                photoCache = try DiskPhotoCache.rebuildIndex(location: location, limits: limits)
            }
            var report = try photoCache.verify(repair: repair)
            report.indexRebuild = photoCache.indexRebuild
            return report
        }
        let record = VerifyRecord(report)
        Terminal.out(json ? JSONOutput.string(record) : record.humanText)
        if !report.isConsistent && !report.repaired { throw ExitStatus.dataError.exitCode }
    }
}
