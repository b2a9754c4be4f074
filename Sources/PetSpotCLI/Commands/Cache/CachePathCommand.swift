import ArgumentParser
import PhotoCLI

/// `petspot cache path`
struct CachePathCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "path",
        abstract: "Print the cache folder (it need not exist yet).")

    @OptionGroup var cache: CacheOptions

    @Flag(help: "Print JSON for scripts: the path and which rule chose it.")
    var json = false

    @Flag(name: .shortAndLong, help: "Also say which rule chose the folder (on stderr).")
    var verbose = false

    func run() async throws {
        let location = cache.location()
        if let note = cache.locationNote() { Terminal.error(note) }
        if json {
            Terminal.out(JSONOutput.string(PathRecord(path: location.root.path, chosenBy: location.source.rawValue)))
        } else {
            Terminal.out(location.root.path)
        }
        if verbose { Terminal.error("chosen by \(location.source.rawValue)") }
    }
}

/// `cache path --json`.
struct PathRecord: Encodable {
    var path: String
    var chosenBy: String
}
