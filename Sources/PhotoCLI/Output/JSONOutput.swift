#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Stable JSON for `--json`: sorted keys, snake_case names, no escaped slashes.
package enum JSONOutput {
    package static func string(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        guard let data = try? encoder.encode(value) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// An error as scripts see it.
package struct ErrorRecord: Encodable {
    package let code: String

    package init(code: String, message: String) {
        self.code = code
        self.message = message
    }
    package let message: String
}
