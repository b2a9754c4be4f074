extension FormRules {
    /// The digit counts a chip number can have: 15 (ISO 11784/11785), and 9 or 10 for older chips.
    public static let microchipDigitCounts: Set<Int> = [9, 10, 15]

    /// A microchip number as typed must be a chip number: digits only (spaces, dashes and dots
    /// between them are fine), 15 of them, or 9 or 10 for older chips. Nothing is dropped or cut
    /// to make it fit: what cannot be a chip number is refused with the reason.
    /// - Parameter text: The number as typed, e.g. `"985 112 003 456 789"`; empty is fine (the
    ///   number is optional).
    /// - Returns: The issue, or `nil` when the text is empty or a plausible chip number.
    public static func microchip(_ text: String) -> ValidationIssue? {
        let compact = text.filter { !($0.isWhitespace || $0 == "-" || $0 == "." ) }
        guard !compact.isEmpty else { return nil }
        let message: String
        if compact.allSatisfy(\.isASCIIDigit) {
            guard !microchipDigitCounts.contains(compact.count) else { return nil }
            message = ValidationMessage.microchipLength
        } else if compact.count == 10, compact.allSatisfy(\.isHexDigit) {
            message = ValidationMessage.microchipHexadecimal
        } else {
            message = ValidationMessage.microchipDigitsOnly
        }
        return ValidationIssue(field: .microchipNumber, message: message)
    }
}
