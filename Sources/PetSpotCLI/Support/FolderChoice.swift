import ArgumentParser

/// What is said when a folder option or variable cannot be used as given, instead of silently
/// falling back to the next rule.
enum FolderChoice {
    /// Refuses `--cache-dir ''` and the like: an empty value names no folder.
    static func checkFlag(_ value: String?, option: String, fallback: String) throws {
        if value == "" {
            throw ValidationError("\(option) '' names no folder; give a folder, or leave \(option) out to use \(fallback).")
        }
    }

    /// A note when `variable` is set but relative, which the XDG Base Directory spec says to ignore.
    /// - Parameters:
    ///   - used: whether a rule before the variable chose the folder already (then nothing is said).
    ///   - instead: the folder used instead, for the message.
    static func relativeXDGNote(_ variable: String, environment: [String: String], used: Bool, instead: String) -> String? {
        guard !used, let value = environment[variable], !value.isEmpty, !value.hasPrefix("/") else { return nil }
        return "note: \(variable)=\(value) is ignored: the XDG Base Directory spec accepts only absolute paths; using \(instead)."
    }
}
