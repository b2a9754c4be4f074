import Foundation

extension String {
    /// The text without surrounding white space, or `nil` when nothing is left.
    var shownText: String? {
        let trimmed = trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
}
