extension FormRules {
    /// An age as typed into a form: empty is no age; otherwise a whole number of years, whose
    /// range ``age(_:)`` then checks.
    /// - Returns: The age (`nil` when empty or not a whole number) and, for text that is not a
    ///   whole number, the issue.
    public static func typedAge(_ text: String) -> (age: Int?, issue: ValidationIssue?) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return (nil, nil) }
        guard trimmed.count <= 6, trimmed.allSatisfy(\.isASCIIDigit), let age = Int(trimmed) else {
            return (nil, ValidationIssue(field: .age, message: ValidationMessage.ageWholeNumber))
        }
        return (age, nil)
    }

    /// A date as a form's date input sends it (`YYYY-MM-DD`); empty is no date, which
    /// ``lastSeenDate(_:today:)`` then refuses.
    /// - Returns: The date (`nil` when empty or not a real day) and, for text that is not a real
    ///   day, the issue.
    public static func typedDate(_ text: String) -> (date: LocalDate?, issue: ValidationIssue?) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return (nil, nil) }
        guard let date = LocalDate(trimmed) else {
            return (nil, ValidationIssue(field: .lastSeenDate, message: ValidationMessage.dateInvalid))
        }
        return (date, nil)
    }

    /// "Where" left empty: the location is required.
    public static func location(_ text: LocationText) -> ValidationIssue? {
        text == .empty ? ValidationIssue(field: .latitude, message: ValidationMessage.locationRequired) : nil
    }

    /// A place name the gazetteer does not know.
    public static func unknownPlace(_ name: String) -> ValidationIssue {
        ValidationIssue(field: .latitude, message: ValidationMessage.placeUnknown(name))
    }
}
