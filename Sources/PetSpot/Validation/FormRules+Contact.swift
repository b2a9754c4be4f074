extension FormRules {
    /// A phone number must have 7–15 digits (E.164) once only digits and `+` are kept; too few and too
    /// many have their own messages.
    /// - Parameters:
    ///   - text: The number as typed.
    ///   - field: ``FormField/phone``, or ``FormField/caregiverPhone`` in the found flow.
    public static func phone(_ text: String, field: FormField = .phone) -> ValidationIssue? {
        let digits = PhoneNumber(text).digitCount
        if digits > PhoneNumber.digitRange.upperBound {
            return ValidationIssue(field: field, message: ValidationMessage.phoneTooLong)
        }
        return digits < PhoneNumber.digitRange.lowerBound ? ValidationIssue(field: field, message: ValidationMessage.phone) : nil
    }

    /// An email address must look like `local@domain.tld` once trimmed.
    public static func email(_ text: String) -> ValidationIssue? {
        EmailAddress(text).isValid ? nil : ValidationIssue(field: .email, message: ValidationMessage.email)
    }
}
