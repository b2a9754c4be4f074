import Foundation

/// A file path typed at a prompt, where no shell expands it.
enum PathInput {
    /// Removes quotes around the path (terminals add them when a file is dropped in), expands a
    /// leading `~/`, and removes the backslashes that escape spaces and other characters (Tab
    /// completion writes `my\ photo.jpg`, some terminals drop files in that way) unless a file has
    /// the name as typed.
    /// - Parameters:
    ///   - text: The answer, trimmed.
    ///   - home: What `~` stands for.
    ///   - exists: Whether a file is at a path.
    static func expand(_ text: String, home: String = NSHomeDirectory(),
                       exists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }) -> String {
        var path = text
        for quote in ["'", "\""] where path.count >= 2 && path.hasPrefix(quote) && path.hasSuffix(quote) {
            path = String(path.dropFirst().dropLast())
        }
        if path == "~" { return home }
        if path.hasPrefix("~/") { path = home + path.dropFirst() }
        if path.contains("\\") && !exists(path) { path = unescaped(path) }
        return path
    }

    /// `text` with each backslash that escapes the character after it removed (`\\` is one backslash).
    private static func unescaped(_ text: String) -> String {
        var result = ""
        var escaping = false
        for character in text {
            if !escaping && character == "\\" {
                escaping = true
                continue
            }
            escaping = false
            result.append(character)
        }
        return result
    }
}
