extension FormRules {
    /// The last seen / found date is required and must be today or earlier.
    /// - Parameters:
    ///   - date: The date entered.
    ///   - today: Today in the reporter's time zone (see ``LocalDate/today(in:now:)``).
    public static func lastSeenDate(_ date: LocalDate?, today: LocalDate) -> ValidationIssue? {
        guard let date else {
            return ValidationIssue(field: .lastSeenDate, message: ValidationMessage.dateRequired)
        }
        return date > today
            ? ValidationIssue(field: .lastSeenDate, message: ValidationMessage.dateInFuture) : nil
    }
}
