/// Why an owner closed an announcement: the pet is home, or the report was taken back.
public enum ClosedOutcome: String, CaseIterable, Codable, Hashable, Sendable {
    /// The pet and its family are together again.
    case reunited = "REUNITED"
    /// The owner withdrew the report (filed by mistake, no longer relevant).
    case withdrawn = "WITHDRAWN"

    /// Parses what a person or a client sent, ignoring case and surrounding whitespace.
    public init?(userInput: String) {
        self.init(rawValue: userInput.trimmingCharacters(in: .whitespacesAndNewlines).uppercased())
    }

    /// The word people see: "Reunited" or "Closed".
    public var displayLabel: String {
        switch self {
        case .reunited: "Reunited"
        case .withdrawn: "Closed"
        }
    }
}
