/// A phone number as the forms accept it, in one normal form: its digits, after a `+` when the
/// number starts with one (an international number, E.164).
///
/// `"+44 20 7946 0958"` becomes `"+442079460958"` (12 digits, valid); `"(022) 123-45-67"`
/// becomes `"0221234567"`: a number without a country code keeps its digits as typed. The rule
/// counts digits only, so the `+` does not count towards 7–15.
public struct PhoneNumber: Hashable, Sendable {
    /// How many digits a valid number has: E.164 allows at most 15.
    public static let digitRange = 7...15

    /// The normal form: `+` when the input's first digit-or-plus is a `+`, then every ASCII digit.
    public let value: String

    /// Normalises what was typed, e.g. `"+48 123-456-789"` to `"+48123456789"`.
    public init(_ input: String) {
        let digits = input.filter(\.isASCIIDigit)
        let international = input.first { $0.isASCIIDigit || $0 == "+" } == "+"
        value = (international ? "+" : "") + digits
    }

    /// How many digits the number has (`+` not counted).
    public var digitCount: Int { value.count(where: \.isASCIIDigit) }

    /// Whether the number has 7–15 digits.
    public var isValid: Bool { Self.digitRange.contains(digitCount) }
}
