import ArgumentParser
import Foundation
import PetSpot
import PetSpotVersion
import PetSpotClient
import PhotoCLI

/// `petspot`: prepare pet photos for a lost-or-found announcement.
public struct PetSpotCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "petspot",
        abstract: "Prepare pet photos, fill in PetSpot lost-or-found reports and submit them.",
        discussion: ExitStatus.helpText,
        version: PetSpotVersion.current,
        subcommands: [PhotoCommand.self, CacheCommand.self, ReportCommand.self, SubmissionsCommand.self, PetCommand.self]
    )

    public init() {}

    /// Parses `arguments` (the command line after `petspot`) and runs the command.
    public static func start(_ arguments: [String]) async {
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
