/// What a new announcement reports: a pet its owner is missing, or a pet someone found.
///
/// Sent as the request's `status` field.
public enum AnnouncementStatus: String, CaseIterable, Codable, Hashable, Sendable {
    case missing = "MISSING"
    case found = "FOUND"
}
