import ArgumentParser
import Foundation

/// `petspot`: prepare pet photos for a lost-or-found announcement.
public struct PetSpotCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "petspot",
        abstract: "Prepare pet photos and fill in PetSpot lost-or-found reports.",
        discussion: ExitStatus.helpText,
        version: "0.1.0",
        subcommands: [PhotoCommand.self, CacheCommand.self, ReportCommand.self]
    )

    public init() {}

    /// Checks what the parser would accept silently (see ``ArgumentPrecheck``), then parses
    /// `arguments` (the command line after `petspot`) and runs the command.
    public static func start(_ arguments: [String]) async {
        if let problem = ArgumentPrecheck.problem(in: arguments, root: Self.self) {
            Terminal.error("error: \(problem)")
            Foundation.exit(ExitStatus.usage.rawValue)
        }
        await main(arguments)
    }
}

/// `petspot photo …`
struct PhotoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photo",
        abstract: "Inspect photos, prepare them for upload, and add them to the cache.",
        subcommands: [InspectCommand.self, PrepareCommand.self, AddCommand.self]
    )
}
