import PetSpot

/// The two report flows, each with at most one draft in progress.
public enum ReportFlow: String, CaseIterable, Codable, Hashable, Sendable {
    /// Reporting one's own missing pet.
    case missing
    /// Reporting a pet one has found.
    case found

    /// "missing-pet report" or "found-pet report", for sentences.
    public var reportName: String { "\(rawValue)-pet report" }

    /// The status the flow's announcement is sent with.
    public var status: AnnouncementStatus {
        switch self {
        case .missing: .missing
        case .found: .found
        }
    }
}
