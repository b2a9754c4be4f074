/// Reads `type/subtype; key=value; key="quoted \"value\""` header values (`Content-Type`,
/// `Content-Disposition`), as RFC 9110 §5.6.6 writes parameters.
struct HeaderParameters: Sendable, Equatable {
    /// The part before the first `;`, lower-cased (`multipart/form-data`, `form-data`).
    var value: String
    /// Parameter names lower-cased; values unquoted.
    var parameters: [String: String]

    init(_ header: String) {
        var scanner = Substring(header)
        value = Self.token(&scanner).lowercased()
        parameters = [:]
        while let semicolon = scanner.firstIndex(of: ";") {
            scanner = scanner[scanner.index(after: semicolon)...]
            let name = Self.token(&scanner, stopAt: "=").lowercased()
            guard scanner.first == "=" else { continue }
            scanner = scanner.dropFirst()
            let parameter = scanner.drop { $0 == " " || $0 == "\t" }.first == "\""
                ? Self.quoted(&scanner) : Self.token(&scanner)
            if !name.isEmpty, parameters[name] == nil { parameters[name] = parameter }
        }
    }

    /// Up to the next `;` (or `stop`), trimmed.
    private static func token(_ scanner: inout Substring, stopAt stop: Character = ";") -> String {
        let end = scanner.firstIndex { $0 == ";" || $0 == stop } ?? scanner.endIndex
        defer { scanner = scanner[end...] }
        return scanner[..<end].trimmingWhitespace()
    }

    /// A quoted string with backslash escapes; the scanner is left after the closing quote.
    private static func quoted(_ scanner: inout Substring) -> String {
        scanner = scanner.drop { $0 == " " || $0 == "\t" }.dropFirst()
        var result = ""
        var escaped = false
        while let character = scanner.first {
            scanner = scanner.dropFirst()
            if escaped {
                result.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                break
            } else {
                result.append(character)
            }
        }
        return result
    }
}

extension Substring {
    func trimmingWhitespace() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
