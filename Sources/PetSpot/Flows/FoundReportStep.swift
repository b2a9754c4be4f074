/// The steps of reporting a found pet: photo (mandatory) → pet details → contact.
public enum FoundReportStep: Int, ReportStep {
    case photo = 1
    case petDetails
    case contact

    /// "Photo", "Pet details" or "Contact details".
    public var title: String {
        switch self {
        case .photo: "Photo"
        case .petDetails: "Pet details"
        case .contact: "Contact details"
        }
    }
}
