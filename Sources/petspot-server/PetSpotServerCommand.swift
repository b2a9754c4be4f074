import ArgumentParser
import Foundation
import PetSpot
import PetSpotVersion
import PhotoPipeline

/// `petspot-server`: the reference backend of the PetSpot announcements API.
struct PetSpotServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "petspot-server",
        abstract: "The reference backend of the PetSpot announcements API (SQLite + photos on disk, or PostgreSQL + an S3 bucket).",
        version: PetSpotVersion.current,
        subcommands: [ServeCommand.self, MigrateCommand.self, PlacesCommand.self],
        defaultSubcommand: ServeCommand.self)
}

/// Reads `PETSPOT_*` options from the environment, then runs the command.
@main
enum PetSpotServerMain {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.count == 1, ["--help", "-h", "help"].contains(arguments[0]) {
            print(overview)
            return
        }
        let environment = ProcessInfo.processInfo.environment
        let known = (EnvironmentOptions.optionNames(of: ServeCommand.self) + EnvironmentOptions.optionNames(of: MigrateCommand.self))
            .map(EnvironmentOptions.variable(for:))
        for warning in VariableSpelling.warnings(environment, known: known, program: "petspot-server") {
            FileHandle.standardError.write(Data((warning + "\n").utf8))
        }
        let merged = EnvironmentOptions.merged(arguments, environment: environment)
        do {
            var command = try PetSpotServerCommand.parseAsRoot(merged)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            if let message = EnvironmentOptions.blame(error, arguments: arguments, environment: environment) {
                FileHandle.standardError.write(Data((message + "\n").utf8))
                PetSpotServerCommand.exit(withError: ExitCode(64))
            }
            PetSpotServerCommand.exit(withError: error)
        }
    }

    /// `petspot-server --help`: what the server is, `serve`'s options (what runs without a
    /// command), then the other commands.
    static var overview: String {
        let serve = PetSpotServerCommand.helpMessage(for: ServeCommand.self).trimmingCharacters(in: .newlines)
        return """
            OVERVIEW: \(PetSpotServerCommand.configuration.abstract)

            Without a command, petspot-server serves (`petspot-server serve`):

            \(serve)

            OTHER COMMANDS:
              migrate                 \(MigrateCommand.configuration.abstract)
                                      (petspot-server help migrate)
            """
    }
}
