/// Why a draft could not be turned into a request.
public enum ReportDraftError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Some fields are still invalid; every one of them is listed.
    case incomplete([ValidationIssue])

    /// A full sentence naming each invalid field and what to do.
    public var description: String {
        switch self {
        case .incomplete(let issues):
            let list = issues.map(\.description).joined(separator: "; ")
            return "The report cannot be sent yet because some fields are invalid (\(list)). "
                + "Correct them and submit again."
        }
    }
}
