import NIOHTTP1

extension SubmissionError {
    /// What answered instead of a PetSpot server, for ``isForeignAnswer`` errors:
    /// "http://h answered 501 Not Implemented", "http://h answered with a body that is not
    /// PetSpot's contract".
    public func foreignAnswerText(server: String) -> String {
        switch self {
        case .http(let status, _, _, _):
            "\(server) answered \(status) \(HTTPResponseStatus(statusCode: status).reasonPhrase)"
        default:
            "\(server) answered with a body that is not PetSpot's contract"
        }
    }
}
