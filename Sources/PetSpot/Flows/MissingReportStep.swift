/// The steps of reporting a missing pet: chip number → photo (optional) → description → contact.
public enum MissingReportStep: Int, ReportStep {
    case chipNumber = 1
    case photo
    case description
    case contact

    /// "Chip number", "Photo", "Description" or "Contact details".
    public var title: String {
        switch self {
        case .chipNumber: "Chip number"
        case .photo: "Photo"
        case .description: "Description"
        case .contact: "Contact details"
        }
    }
}
