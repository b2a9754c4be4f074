/// A piece of HTML in which every interpolated `String` is escaped, so a value can never
/// become markup: `"<p>\(description)</p>" as HTML` shows `<script>` as text. Only another
/// `HTML` value goes in as it is.
struct HTML: ExpressibleByStringInterpolation, Sendable, CustomStringConvertible {
    private(set) var text: String

    init(stringLiteral value: String) {
        text = value
    }

    init(stringInterpolation: StringInterpolation) {
        text = stringInterpolation.output
    }

    var description: String { text }

    static let empty: HTML = ""

    /// `html` joined with nothing between.
    init(joining html: some Sequence<HTML>) {
        text = html.map(\.text).joined()
    }

    struct StringInterpolation: StringInterpolationProtocol {
        var output = ""

        init(literalCapacity: Int, interpolationCount: Int) {
            output.reserveCapacity(literalCapacity + interpolationCount * 16)
        }

        mutating func appendLiteral(_ literal: String) {
            output += literal
        }

        /// Text: escaped for element content and for double-quoted attribute values alike.
        mutating func appendInterpolation(_ value: String) {
            output += HTML.escape(value)
        }

        mutating func appendInterpolation(_ value: Int) {
            output += String(value)
        }

        mutating func appendInterpolation(_ html: HTML) {
            output += html.text
        }

        mutating func appendInterpolation(_ html: [HTML]) {
            output += html.map(\.text).joined()
        }
    }

    /// `&`, `<`, `>`, `"` and `'` as character references.
    static func escape(_ value: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(value.utf8.count)
        for character in value.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }
}
