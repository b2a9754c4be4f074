import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Parses a command line against a root command and runs what it names, the same way in both
/// binaries: the small `petspot` (photo commands) and `petspot-full` (every command).
package enum CommandRun {
    /// Parses `arguments` (the command line after `petspot`) and runs the command; what the parser
    /// would accept silently is checked first (see ``ArgumentPrecheck``).
    /// - Parameter quick: reads the plain command lines it knows without ArgumentParser (the small
    ///   binary's ``QuickCommandLine``), before the precheck: it takes none that the precheck refuses
    ///   (no `help`, no bare command group, no argument starting with a single `-` but `-o`, `-v`,
    ///   `-q` and `-`), and the precheck reads the commands' configurations, help texts included.
    package static func start<Root: AsyncParsableCommand>(_ arguments: [String], root: Root.Type,
                                                          quick: ([String]) -> QuickCommandLine.Command? = { _ in nil }) async {
        switch quick(arguments) {
        case .version(let version)?:
            Terminal.out(version)
            return
        case .prepare(let request)?:
            return await execute(PrepareCommand.self, root: root) { try await request.run() }
        case .inspect(let command)?:
            return await execute(InspectCommand.self, root: root) { try await command.run() }
        case nil:
            break
        }
        if let problem = ArgumentPrecheck.problem(in: arguments, root: root) {
            Terminal.error("error: \(problem)")
            exit(ExitStatus.usage.rawValue)
        }
        let command: any ParsableCommand
        do {
            command = try await root.asyncParseAsRoot(arguments)
        } catch {
            root.exit(withError: error)
        }
        await execute(Swift.type(of: command), root: root) {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                var plain = command
                try plain.run()
            }
        }
    }

    /// Runs a parsed command of type `type`, and exits as ArgumentParser would if it throws.
    private static func execute<Root: ParsableCommand>(_ type: any ParsableCommand.Type, root: Root.Type,
                                                       _ run: () async throws -> Void) async {
        do {
            try await run()
        } catch let error as ValidationError {
            // Thrown by a subcommand once it ran: its own usage, not "Usage: petspot <subcommand>".
            let name = ([commandName(root)] + path(to: type, from: root)).joined(separator: " ")
            Terminal.error("Error: \(error.message)")
            Terminal.error("Usage: " + root.usageString(for: type))
            Terminal.error("  See '\(name) --help' for more information.")
            exit(ExitStatus.usage.rawValue)
        } catch {
            root.exit(withError: error)
        }
    }

    /// The command names from the root down to `type` (`report missing`).
    private static func path(to type: any ParsableCommand.Type, from root: any ParsableCommand.Type) -> [String] {
        func search(_ node: any ParsableCommand.Type, _ trail: [String]) -> [String]? {
            if node == type { return trail }
            for child in node.configuration.subcommands {
                if let found = search(child, trail + [child._commandName]) { return found }
            }
            return nil
        }
        return search(root, []) ?? []
    }

    private static func commandName(_ root: any ParsableCommand.Type) -> String {
        root.configuration.commandName ?? "petspot"
    }
}
