import ArgumentParser
import PetSpotVersion

/// The commands the small `petspot` binary runs itself: `photo inspect`, `photo prepare` and
/// `--version`. The same command types as in `petspot-full`'s tree, under the same names, so their
/// parsing, errors and usage lines are the same whichever binary runs them.
package struct PhotoCommandsRoot: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "petspot",
        version: PetSpotVersion.current,
        subcommands: [PhotoCommands.self])

    package init() {}

    /// `photo` with the two commands that need no cache, drafts or network.
    struct PhotoCommands: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "photo",
            subcommands: [InspectCommand.self, PrepareCommand.self])
    }

    /// Whether the small binary runs `arguments` (the command line after `petspot`) itself.
    /// Everything else, help included (its text lists every command), goes to `petspot-full`.
    package static func runsHere(_ arguments: [String]) -> Bool {
        if arguments == ["--version"] { return true }
        guard arguments.count >= 2, arguments[0] == "photo", ["inspect", "prepare"].contains(arguments[1]) else { return false }
        let options = arguments.dropFirst(2).prefix { $0 != "--" }
        return !options.contains { handedOn.contains($0) }
    }

    /// Options that ask for text about the whole tool rather than for work.
    private static let handedOn: Set<String> = ["-h", "--help", "-help", "--help-hidden", "--version",
                                                "--generate-completion-script", "--experimental-dump-help"]
}
