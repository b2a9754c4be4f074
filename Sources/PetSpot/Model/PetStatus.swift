/// The state of an announcement as the backend reports it in ``PetDetails``.
public enum PetStatus: String, CaseIterable, Codable, Hashable, Sendable {
    /// The pet is still missing (the announcement is live). Shown to people as "MISSING".
    case active = "ACTIVE"
    /// The pet was found.
    case found = "FOUND"
    /// The announcement was closed by its owner.
    case closed = "CLOSED"

    /// The label people see: ``active`` reads "MISSING", the others their own name.
    public var displayLabel: String {
        switch self {
        case .active: "MISSING"
        case .found: "FOUND"
        case .closed: "CLOSED"
        }
    }
}
