/// What an action of the manage pages did, said on the page it redirects to (POST → 303 → GET):
/// the action's name travels in the `done` query parameter, never anything the person typed.
enum ManageNotice: String, Sendable, CaseIterable {
    case signedIn = "signed-in"
    case signedInByLink = "signed-in-by-link"
    case saved
    case unchanged
    case reunited
    case withdrawn
    case reopened
    case signedOut = "signed-out"
    case newPassword = "new-password"
    case takenDown = "taken-down"

    /// The query parameter.
    static let parameter = "done"

    /// The sentence shown in the page's banner.
    func message(foundReport: Bool) -> String {
        switch self {
        case .signedIn: "You are signed in. You stay signed in on this device until 30 minutes pass without you opening or changing these pages."
        case .signedInByLink: "You are signed in with the emailed link, which now no longer works. If you lost the password, make a new one below; other devices were signed out."
        case .saved: "Your changes are saved and shown on the report's page."
        case .unchanged: "Nothing was changed: the form was sent as it was."
        case .reunited: foundReport
            ? "Your report is closed as reunited. The page says the pet is back with its family and no longer shows your contact details."
            : "Your report is closed as reunited: welcome home! The page says so and no longer shows your contact details."
        case .withdrawn: "Your report is closed. It has left the lists and its page no longer shows your contact details."
        case .reopened: "Your report is open again: it is back in the lists with your contact details."
        case .signedOut: "You are signed out, on this device and every other one."
        case .newPassword: "The report has a new management password. The old one no longer works, and every other device was signed out."
        case .takenDown: "Your report is taken down: its details, contact details and photo are erased."
        }
    }

    /// `path` with this notice.
    func url(_ path: String) -> String { "\(path)?\(Self.parameter)=\(rawValue)" }
}
