import Foundation

/// Header values from people's text (a pet's name in a subject, a display name), written so that
/// nothing in them can end the header or add another: control characters and line breaks become
/// spaces, and anything but plain printable ASCII is sent as RFC 2047 encoded words
/// (`=?utf-8?b?…?=`, base64, each at most 75 characters, a whole character never split between
/// two), folded onto continuation lines.
enum HeaderText {
    /// The longest text kept (in characters); a subject is a line, not a description.
    static let maximumCharacters = 200

    /// `text` as people should read it in a header: C0 and C1 controls, DEL, line and paragraph
    /// separators and bidirectional overrides (which could make a subject read backwards) become
    /// spaces; runs of spaces become one; trimmed; cut to ``maximumCharacters``.
    static func cleaned(_ text: String) -> String {
        var out = ""
        var lastWasSpace = true
        for scalar in text.unicodeScalars {
            let v = scalar.value
            let blank = v < 0x20 || v == 0x7F || (0x80...0x9F).contains(v) || v == 0x2028 || v == 0x2029
                || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) || v == 0x200E || v == 0x200F
                || v == 0xFEFF || scalar == " "
            if blank {
                if !lastWasSpace { out.unicodeScalars.append(" ") }
                lastWasSpace = true
            } else {
                out.unicodeScalars.append(scalar)
                lastWasSpace = false
            }
        }
        if out.hasSuffix(" ") { out.removeLast() }
        if out.count > maximumCharacters { out = String(out.prefix(maximumCharacters - 1)) + "…" }
        return out
    }

    /// An unstructured value (RFC 5322 §3.2.5, e.g. `Subject`): as it is when it is printable
    /// ASCII and holds nothing that looks like an encoded word, else encoded words; folded so
    /// that no line passes 78 characters. `nameLength` is the field name's length with its
    /// colon and space.
    static func unstructured(_ text: String, nameLength: Int) -> String {
        let clean = cleaned(text)
        if isPlain(clean) { return fold(words: clean.split(separator: " ").map(String.init), firstLineUsed: nameLength) }
        return encodedWords(clean).joined(separator: "\r\n ")
    }

    /// A display name (a phrase, RFC 5322 §3.2.5): letters, digits and spaces as they are,
    /// anything else as encoded words (a quoted string would need its own escaping rules).
    static func phrase(_ text: String) -> String {
        let clean = cleaned(text)
        let simple = !clean.isEmpty && clean.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x20
        }
        return simple ? clean : encodedWords(clean).joined(separator: "\r\n ")
    }

    /// Printable ASCII with no `=?` (which a reader would take for the start of an encoded word).
    static func isPlain(_ text: String) -> Bool {
        text.utf8.allSatisfy { (0x20...0x7E).contains($0) } && !text.contains("=?")
    }

    /// `text` as `=?utf-8?b?…?=` words of at most 60 characters each (RFC 2047 allows 75): at
    /// most 36 bytes of UTF-8 per word (48 of base64), cut between characters, so that the first
    /// fits on its field's line within 78 characters.
    static func encodedWords(_ text: String) -> [String] {
        var words: [String] = []
        var chunk: [UInt8] = []
        for character in text {
            let bytes = Array(String(character).utf8)
            if chunk.count + bytes.count > 36, !chunk.isEmpty {
                words.append("=?utf-8?b?" + Data(chunk).base64EncodedString() + "?=")
                chunk = []
            }
            // A single character longer than 36 bytes (a long emoji sequence) goes alone.
            chunk += bytes
        }
        if !chunk.isEmpty || words.isEmpty { words.append("=?utf-8?b?" + Data(chunk).base64EncodedString() + "?=") }
        return words
    }

    /// Words joined by spaces, a line break (CRLF and a space) before a word that would pass 78.
    static func fold(words: [String], firstLineUsed: Int) -> String {
        var out = ""
        var lineLength = firstLineUsed
        for (index, word) in words.enumerated() {
            if index > 0 {
                if lineLength + 1 + word.utf8.count > 78 {
                    out += "\r\n "
                    lineLength = 1
                } else {
                    out += " "
                    lineLength += 1
                }
            }
            out += word
            lineLength += word.utf8.count
        }
        return out
    }
}
