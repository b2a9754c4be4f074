import ArgumentParser
import Foundation
import PetSpot
import PetSpotVersion
import PetSpotClient
import PhotoCLI
import PhotoPipeline

/// `petspot`: prepare pet photos for a lost-or-found announcement.
public struct PetSpotCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "petspot",
        abstract: "Prepare pet photos, fill in PetSpot lost-or-found reports and submit them.",
        discussion: "Every command's help (`petspot help report submit`) ends with the exit codes it can return.",
        version: PetSpotVersion.current,
        subcommands: [PhotoCommand.self, CacheCommand.self, ReportCommand.self, SubmissionsCommand.self, PetCommand.self]
    )

    public init() {}

    /// The environment variables petspot reads (docs/cli.md says what each does).
    static let variables = ["PETSPOT_SERVER", "PETSPOT_STATE_DIR", "PETSPOT_CACHE_DIR", "PETSPOT_CACHE_MAX_SIZE",
                            "PETSPOT_CACHE_MAX_AGE", "PETSPOT_PASSWORD"]

    /// Parses `arguments` (the command line after `petspot`) and runs the command.
    public static func start(_ arguments: [String]) async {
        for warning in VariableSpelling.warnings(ProcessInfo.processInfo.environment, known: variables, program: "petspot") {
            Terminal.error(warning)
        }
        await CommandRun.start(arguments, root: Self.self)
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
