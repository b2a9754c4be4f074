import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PhotoPipeline

/// What the argument parser would get wrong silently, checked before it runs: a bare command
/// group (it would print help and exit 0), `help` with an unknown command, and a file name that
/// starts with `-` (`-hamster.jpg` reads as `-h` and prints help).
package enum ArgumentPrecheck {
    /// A usage error to print (then exit 64), or `nil` when the arguments can be parsed.
    package static func problem(in arguments: [String], root: any ParsableCommand.Type) -> String? {
        var command = root
        var names = arguments[...]
        let asksHelp = names.first == "help"
        if asksHelp { names = names.dropFirst() }
        var path = [name(of: root)]
        while let next = names.first, !next.hasPrefix("-") {
            guard let sub = command.configuration.subcommands.first(where: { name(of: $0) == next }) else {
                // An unknown command: the parser says so itself, except after `help`.
                return asksHelp ? "\(path.joined(separator: " ")) has no command '\(next)'; its commands are \(list(command, joinedBy: "and"))." : nil
            }
            command = sub
            path.append(next)
            names = names.dropFirst()
        }
        if !asksHelp, names.isEmpty, !command.configuration.subcommands.isEmpty {
            return "\(path.joined(separator: " ")) needs a command: \(list(command)). `\(path.joined(separator: " ")) --help` says what each does."
        }
        for argument in names {
            if argument == "--" { break }
            if let hint = dashedFileHint(argument) { return hint }
        }
        return nil
    }

    /// The hint for an argument that is a file name starting with `-` rather than options.
    private static func dashedFileHint(_ argument: String) -> String? {
        guard argument.hasPrefix("-"), !argument.hasPrefix("--"), argument.count > 2, Double(argument) == nil,
              !argument.contains("=") else { return nil }
        let ext = PathText.pathExtension(argument)
        guard FileManager.default.fileExists(atPath: argument) || (!ext.isEmpty && MediaType(fileExtension: ext) != nil)
        else { return nil }
        return "'\(argument)' starts with '-', so it would be read as options, not as a file name. "
            + "Write ./\(argument), or put -- before the file names (`… -- \(argument)`)."
    }

    private static func name(of command: any ParsableCommand.Type) -> String {
        command.configuration.commandName ?? String(describing: command).lowercased()
    }

    private static func list(_ command: any ParsableCommand.Type, joinedBy conjunction: String = "or") -> String {
        let names = command.configuration.subcommands.map(name(of:))
        return names.count > 1 ? names.dropLast().joined(separator: ", ") + " \(conjunction) " + names.last! : names.joined()
    }
}
