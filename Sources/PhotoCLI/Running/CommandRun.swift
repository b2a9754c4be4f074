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
    package static func start<Root: AsyncParsableCommand>(_ arguments: [String], root: Root.Type) async {
        if let problem = ArgumentPrecheck.problem(in: arguments, root: root) {
            Terminal.error("error: \(problem)")
            exit(ExitStatus.usage.rawValue)
        }
        let command: any ParsableCommand
        do {
            command = try await root.asyncParseAsRoot(arguments)
        } catch {
            if root.exitCode(for: error) == .success, let help = help(for: arguments, root: root) {
                Terminal.out(help)
                exit(ExitStatus.ok.rawValue)
            }
            root.exit(withError: error)
        }
        // `--help` and `help …` parse as ArgumentParser's own help command.
        if Swift.type(of: command)._commandName == "help", let help = help(for: arguments, root: root) {
            Terminal.out(help)
            return
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

    /// The help a `--help`, `-h` or `help …` asked for: ArgumentParser's text for the command
    /// named, then the exit codes that command can return (``ExitCodesListed``), last, so that
    /// the commands and options come first. `nil` when the arguments do not ask for help.
    static func help<Root: ParsableCommand>(for arguments: [String], root: Root.Type) -> String? {
        let asked = arguments.first == "help" || arguments.prefix { $0 != "--" }.contains { $0 == "--help" || $0 == "-h" }
        guard asked else { return nil }
        var type: any ParsableCommand.Type = root
        var trail: [any ParsableCommand.Type] = [root]
        for argument in arguments.drop(while: { $0 == "help" }) where !argument.hasPrefix("-") {
            guard let child = type.configuration.subcommands.first(where: {
                $0._commandName == argument || $0.configuration.aliases.contains(argument)
            }) else { break }
            type = child
            trail.append(child)
        }
        let text = root.helpMessage(for: type).trimming { $0 == "\n" }
        let codes = trail.reversed().lazy.compactMap { ($0 as? any ExitCodesListed.Type)?.exitCodes }.first
            ?? allCodes(below: type)
        guard !codes.isEmpty else { return text }
        return text + "\n\n" + ExitStatus.help(codes)
    }

    /// Every code the commands under `type` list (a command group's help).
    private static func allCodes(below type: any ParsableCommand.Type) -> [ExitStatus] {
        let own = (type as? any ExitCodesListed.Type)?.exitCodes ?? []
        return own + type.configuration.subcommands.flatMap { allCodes(below: $0) }
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
