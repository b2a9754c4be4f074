import Foundation

/// A file path typed at a prompt, where no shell expands it.
enum PathInput {
    /// Removes quotes around the path (terminals add them when a file is dropped in) and
    /// expands a leading `~/`.
    static func expand(_ text: String, home: String = NSHomeDirectory()) -> String {
        var path = text
        for quote in ["'", "\""] where path.count >= 2 && path.hasPrefix(quote) && path.hasSuffix(quote) {
            path = String(path.dropFirst().dropLast())
        }
        if path == "~" { return home }
        if path.hasPrefix("~/") { return home + path.dropFirst() }
        return path
    }
}
