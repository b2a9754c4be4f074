extension FormRules {
    /// A phone number must have 7–15 digits (E.164) once only digits and `+` are kept; too few and too
    /// many have their own messages. As typed it may be at most ``TextLimit/phone`` long.
    /// - Parameters:
    ///   - text: The number as typed.
    ///   - field: ``FormField/phone``, or ``FormField/caregiverPhone`` in the found flow.
    public static func phone(_ text: String, field: FormField = .phone) -> ValidationIssue? {
        let cap = TextLimit(field: field, maximumCharacters: TextLimit.phone.maximumCharacters, maximumBytes: TextLimit.phone.maximumBytes)
        if let issue = cap.validate(text) { return issue }
        let digits = PhoneNumber(text).digitCount
        if digits > PhoneNumber.digitRange.upperBound {
            return ValidationIssue(field: field, message: ValidationMessage.phoneTooLong)
        }
        return digits < PhoneNumber.digitRange.lowerBound ? ValidationIssue(field: field, message: ValidationMessage.phone) : nil
    }

    /// An email address must look like `local@domain.tld` once trimmed, within ``TextLimit/email``.
    public static func email(_ text: String) -> ValidationIssue? {
        let address = EmailAddress(text)
        if let issue = TextLimit.email.validate(address.value) { return issue }
        return address.isValid ? nil : ValidationIssue(field: .email, message: ValidationMessage.email)
    }
}
