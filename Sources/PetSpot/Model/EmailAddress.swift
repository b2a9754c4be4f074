import Foundation

/// An email address as the forms accept it: trimmed, shaped `local@domain.tld`, compared
/// case-insensitively.
///
/// ``value`` keeps the spelling the person typed (minus surrounding whitespace) and is what
/// gets sent; equality and hashing use ``normalized`` so `Ann@Example.com` equals
/// `ann@example.com`.
public struct EmailAddress: Hashable, Sendable {
    /// The address with surrounding whitespace removed.
    public let value: String

    /// Trims whitespace and newlines around `input`.
    public init(_ input: String) {
        value = input.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The lowercased address, used for comparisons.
    public var normalized: String { value.lowercased() }

    /// Whether the address looks like `local@domain.tld`: one `@`, no whitespace, a non-empty
    /// local part, a domain of dot-separated labels (letters, digits, `-`), and a top-level
    /// domain of at least two letters.
    public var isValid: Bool {
        guard !value.contains(where: \.isWhitespace) else { return false }
        let halves = value.split(separator: "@", omittingEmptySubsequences: false)
        guard halves.count == 2, !halves[0].isEmpty else { return false }
        let labels = halves[1].split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, let topLevel = labels.last,
              topLevel.count >= 2, topLevel.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return false }
        return labels.allSatisfy { label in
            !label.isEmpty && label.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
        }
    }

    /// Compares two addresses ignoring case.
    public static func == (lhs: EmailAddress, rhs: EmailAddress) -> Bool {
        lhs.normalized == rhs.normalized
    }

    /// Hashes the lowercased address, consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(normalized)
    }
}
