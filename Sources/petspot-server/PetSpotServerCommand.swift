import ArgumentParser
import Foundation
import PetSpot
import PetSpotVersion

/// `petspot-server`: the reference backend of the PetSpot announcements API.
struct PetSpotServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "petspot-server",
        abstract: "The reference backend of the PetSpot announcements API (SQLite + photos on disk, or PostgreSQL + an S3 bucket).",
        version: PetSpotVersion.current,
        subcommands: [ServeCommand.self, MigrateCommand.self],
        defaultSubcommand: ServeCommand.self)
}

/// Reads `PETSPOT_*` options from the environment, then runs the command.
@main
enum PetSpotServerMain {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        await PetSpotServerCommand.main(EnvironmentOptions.merged(arguments, environment: ProcessInfo.processInfo.environment))
    }
}
