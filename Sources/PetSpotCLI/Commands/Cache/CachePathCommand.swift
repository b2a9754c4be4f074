import ArgumentParser

/// `petspot cache path`
struct CachePathCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "path",
        abstract: "Print the cache folder (it need not exist yet).")

    @OptionGroup var cache: CacheOptions

    @Flag(help: "Also say which rule chose the folder (on stderr).")
    var verbose = false

    func run() async throws {
        let location = cache.location()
        Terminal.out(location.root.path)
        if verbose { Terminal.error("chosen by \(location.source.rawValue)") }
    }
}
