import ArgumentParser
import Foundation

/// Every option of `serve` and `migrate` can come from the environment, for containers:
/// `--database-url` from `PETSPOT_DATABASE_URL`, `--port` from `PETSPOT_PORT`, and so on. The
/// command line wins; a repeatable option (`--trusted-proxy`) takes a comma-separated list.
/// The option names are read from the commands' own help, so a new option gets its variable
/// without a list to keep in step.
enum EnvironmentOptions {
    static let repeatable: Set<String> = ["trusted-proxy"]

    /// `arguments` with the options the environment sets and the command line does not.
    static func merged(_ arguments: [String], environment: [String: String]) -> [String] {
        if arguments.contains(where: { ["-h", "--help", "help", "--version"].contains($0) }) { return arguments }
        let command: any ParsableCommand.Type = arguments.first == "migrate" ? MigrateCommand.self : ServeCommand.self
        var merged = arguments
        for name in optionNames(of: command) {
            guard let value = environment[variable(for: name)], !value.isEmpty,
                  !arguments.contains(where: { $0 == "--\(name)" || $0.hasPrefix("--\(name)=") }) else { continue }
            let values = repeatable.contains(name) ? value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } : [value]
            for value in values where !value.isEmpty { merged += ["--\(name)", value] }
        }
        return merged
    }

    /// When parsing failed on an option the environment set (and the command line did not), the
    /// error naming the variable, its value and what is wrong; `nil` otherwise.
    static func blame(_ error: any Error, arguments: [String], environment: [String: String]) -> String? {
        let message = PetSpotServerCommand.message(for: error)
        guard !message.isEmpty, PetSpotServerCommand.exitCode(for: error) != .success else { return nil }
        let command: any ParsableCommand.Type = arguments.first == "migrate" ? MigrateCommand.self : ServeCommand.self
        for name in optionNames(of: command) where message.contains("--\(name)") {
            let variable = variable(for: name)
            guard environment[variable].map({ !$0.isEmpty }) == true,
                  !arguments.contains(where: { $0 == "--\(name)" || $0.hasPrefix("--\(name)=") }) else { continue }
            // The value is not echoed here (a URL may hold a password); the parser's message quotes
            // it for the options it can refuse, none of which is a secret.
            return "Error: \(variable) (the environment's --\(name)) is not valid: \(message)\n"
                + "Fix or unset \(variable); a --\(name) on the command line takes precedence over it."
        }
        return nil
    }

    /// `database-url` → `PETSPOT_DATABASE_URL`.
    static func variable(for option: String) -> String {
        "PETSPOT_" + option.uppercased().replacingOccurrences(of: "-", with: "_")
    }

    /// The long option names a command's help lists (without `help`).
    static func optionNames(of command: any ParsableCommand.Type) -> [String] {
        var names: [String] = []
        let help = command.helpMessage(columns: 10_000)
        for line in help.split(separator: "\n") {
            let trimmed = line.drop(while: { $0 == " " })
            guard trimmed.hasPrefix("--") || trimmed.hasPrefix("-") else { continue }
            for word in trimmed.split(separator: " ").prefix(3) where word.hasPrefix("--") {
                let name = word.dropFirst(2).prefix(while: { $0.isLetter || $0.isNumber || $0 == "-" })
                if !name.isEmpty, name != "help", name != "version", !names.contains(String(name)) { names.append(String(name)) }
            }
        }
        return names
    }
}

