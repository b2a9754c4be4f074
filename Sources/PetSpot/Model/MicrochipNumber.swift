/// A pet's microchip number: ASCII digits only, at most 15 of them.
///
/// Whatever is typed is sanitised on the way in — other characters are dropped and digits
/// past the 15th are cut off, like a text field with a digit keyboard and a max length — so
/// a value of this type is always well-formed. Check typed text with ``FormRules/microchip(_:)``
/// first, so that what cannot be a chip number is refused rather than cut to fit. Shown in groups of five: `12345-67890-12345`.
/// Encodes as the bare digit string; decoding sanitises the same way.
public struct MicrochipNumber: Hashable, Sendable, Codable {
    /// The most digits a microchip number has (ISO 11784/11785).
    public static let maximumDigits = 15
    /// How many digits each displayed group holds.
    public static let groupSize = 5

    /// The digits, e.g. `"123456789012345"`; empty when no number was entered.
    public let digits: String

    /// Keeps the ASCII digits of `input`, up to ``maximumDigits``.
    /// - Parameter input: What was typed or pasted, e.g. `"12a34b56"` (gives `123456`).
    public init(_ input: String) {
        digits = String(input.filter(\.isASCIIDigit).prefix(Self.maximumDigits))
    }

    /// Whether no digit was entered.
    public var isEmpty: Bool { digits.isEmpty }

    /// The digits in groups of five joined by `-`, the last group as long as it comes:
    /// `12345-67890-12345`, `12345-6`, or `""` when empty.
    public var formatted: String {
        var groups: [Substring] = []
        var rest = digits[...]
        while !rest.isEmpty {
            groups.append(rest.prefix(Self.groupSize))
            rest = rest.dropFirst(Self.groupSize)
        }
        return groups.joined(separator: "-")
    }

    /// Decodes a digit string, sanitising it like ``init(_:)``.
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the bare digits.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(digits)
    }
}
