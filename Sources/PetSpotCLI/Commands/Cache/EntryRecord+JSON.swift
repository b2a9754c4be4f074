import PhotoCLI
extension EntryRecord {
    /// The record as `JSONOutput` would print it inside an array (sorted keys, snake_case, two
    /// spaces of indent, nil fields left out), written by hand: `cache list --json` prints 100 000
    /// of them, and `JSONEncoder` per row is ten times slower.
    var jsonArrayElement: String {
        var fields: [(String, String)] = [("bytes", String(bytes))]
        if let capturedAt { fields.append(("captured_at", Self.quoted(capturedAt))) }
        fields += [("created", Self.quoted(created)), ("height", String(height)), ("key", Self.quoted(key)),
                   ("last_access", Self.quoted(lastAccess)), ("mime_type", Self.quoted(mimeType)), ("path", Self.quoted(path)),
                   ("pins", pins.isEmpty ? "[]" : "[\n" + pins.map { "      " + Self.quoted($0) }.joined(separator: ",\n") + "\n    ]")]
        if let sourceDigest { fields.append(("source_digest", Self.quoted(sourceDigest))) }
        if let sourceFileName { fields.append(("source_file_name", Self.quoted(sourceFileName))) }
        fields.append(("width", String(width)))
        return "  {\n" + fields.map { "    \"\($0.0)\" : \($0.1)" }.joined(separator: ",\n") + "\n  }"
    }

    /// `text` as a JSON string literal (slashes unescaped, like `JSONOutput`).
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{08}": result += "\\b"
            case "\u{0C}": result += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
