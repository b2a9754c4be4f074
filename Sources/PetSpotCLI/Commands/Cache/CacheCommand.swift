import ArgumentParser
import PhotoCLI

/// `petspot cache …`
struct CacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Look after the photo cache, where prepared photos wait to be uploaded.",
        discussion: """
            The cache lives in --cache-dir, else $PETSPOT_CACHE_DIR, else $XDG_CACHE_HOME/petspot \
            (when absolute), else ~/.cache/petspot. After each `photo add`, the least recently used \
            photos beyond the size limit (default 512 MiB) or unused for longer than the age limit \
            (default 30 days) are evicted; the current photo of a missing or found report is never evicted.
            """,
        subcommands: [CachePathCommand.self, CacheStatsCommand.self, CacheListCommand.self,
                      CachePruneCommand.self, CacheClearCommand.self, CacheVerifyCommand.self]
    )
}

extension CacheCommand: ExitCodesListed {
    static var exitCodes: [ExitStatus] { ExitStatus.cacheCodes }
}
