/// One problem with one field, with the message to show next to it.
public struct ValidationIssue: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The field the problem is about.
    public let field: FormField
    /// The message a person sees, e.g. "Enter at least 7 digits".
    public let message: String

    /// Creates an issue.
    public init(field: FormField, message: String) {
        self.field = field
        self.message = message
    }

    /// `"<label>: <message>"`, e.g. `Phone: Enter at least 7 digits`.
    public var description: String { "\(field.label): \(message)" }
}
