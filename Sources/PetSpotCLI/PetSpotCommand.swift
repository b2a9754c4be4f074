import ArgumentParser
import Foundation
import PetSpot
import PetSpotClient

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

    /// Checks what the parser would accept silently (see ``ArgumentPrecheck``), then parses
    /// `arguments` (the command line after `petspot`) and runs the command.
    public static func start(_ arguments: [String]) async {
        if let problem = ArgumentPrecheck.problem(in: arguments, root: Self.self) {
            Terminal.error("error: \(problem)")
            Foundation.exit(ExitStatus.usage.rawValue)
        }
        let command: any ParsableCommand
        do {
            command = try await asyncParseAsRoot(arguments)
        } catch {
            exit(withError: error)
        }
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                var plain = command
                try plain.run()
            }
        } catch let error as ValidationError {
            // Thrown by a subcommand once it ran: its own usage, not "Usage: petspot <subcommand>".
            let type = Swift.type(of: command)
            let name = ([commandName] + path(to: type)).joined(separator: " ")
            Terminal.error("Error: \(error.message)")
            Terminal.error("Usage: " + usageString(for: type))
            Terminal.error("  See '\(name) --help' for more information.")
            Foundation.exit(ExitStatus.usage.rawValue)
        } catch {
            exit(withError: error)
        }
    }

    /// The command names from the root down to `type` (`report missing`).
    private static func path(to type: any ParsableCommand.Type) -> [String] {
        func search(_ node: any ParsableCommand.Type, _ trail: [String]) -> [String]? {
            if node == type { return trail }
            for child in node.configuration.subcommands {
                if let found = search(child, trail + [child._commandName]) { return found }
            }
            return nil
        }
        return search(Self.self, []) ?? []
    }

    private static var commandName: String { "petspot" }
}

/// `petspot photo …`
struct PhotoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photo",
        abstract: "Inspect photos, prepare them for upload, and add them to the cache.",
        subcommands: [InspectCommand.self, PrepareCommand.self, AddCommand.self]
    )
}
