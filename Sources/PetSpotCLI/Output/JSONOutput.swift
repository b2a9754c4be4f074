import Foundation

/// Stable JSON for `--json`: sorted keys, snake_case names, no escaped slashes.
enum JSONOutput {
    static func string(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        guard let data = try? encoder.encode(value) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// An error as scripts see it.
struct ErrorRecord: Encodable {
    let code: String
    let message: String
}
