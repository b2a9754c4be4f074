/// Field names and filenames in `Content-Disposition`, written as browsers write them (HTML's
/// multipart/form-data encoding): `"` as `%22`, CR as `%0D`, LF as `%0A`, other text — UTF-8
/// included — as is. A backslash is written as the quoted-pair `\\`, which the parsers of Python's
/// standard library, Werkzeug and our server all read back as one backslash (a bare one is
/// dropped by some).
enum FormDataEscaping {
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "%22"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            case "\\": result += "\\\\"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// The last path component (after the last `/` or `\`), as browsers send only a file's name.
    static func baseName(_ filename: String) -> String {
        guard let separator = filename.lastIndex(where: { $0 == "/" || $0 == "\\" }) else { return filename }
        return String(filename[filename.index(after: separator)...])
    }

    /// A header value with no line breaks (they would end the header and inject others).
    static func headerValue(_ text: String) -> String {
        String(text.unicodeScalars.filter { $0 != "\r" && $0 != "\n" }.map(Character.init))
    }
}
