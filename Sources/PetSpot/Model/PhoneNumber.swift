/// A phone number as the forms accept it: only digits and `+` are kept.
///
/// `"+48 123-456-789"` becomes `"+48123456789"`, which has 11 digits and is valid.
/// The rule counts digits only, so a leading `+` does not count towards 7–11.
public struct PhoneNumber: Hashable, Sendable {
    /// How many digits a valid number has.
    public static let digitRange = 7...11

    /// The sanitised number: the digits and `+` signs of the input, in order.
    public let value: String

    /// Keeps the ASCII digits and `+` signs of `input`.
    /// - Parameter input: What was typed, e.g. `"+48 123-456-789"`.
    public init(_ input: String) {
        value = input.filter { $0.isASCIIDigit || $0 == "+" }
    }

    /// How many digits the number has (`+` not counted).
    public var digitCount: Int { value.count(where: \.isASCIIDigit) }

    /// Whether the number has 7–11 digits.
    public var isValid: Bool { Self.digitRange.contains(digitCount) }
}
