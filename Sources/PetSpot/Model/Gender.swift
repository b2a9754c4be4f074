import Foundation

/// The sex of an animal, as the wire field `sex` (requests) or `gender` (``PetDetails``) carries it.
///
/// The forms only accept ``male`` or ``female``; ``unknown`` exists because the contract
/// allows it and announcements read back from the backend may carry it.
public enum Gender: String, CaseIterable, Codable, Hashable, Sendable {
    case male = "MALE"
    case female = "FEMALE"
    case unknown = "UNKNOWN"

    /// Parses what a person typed (`male`, `female`, `unknown`), ignoring case and surrounding whitespace.
    /// - Parameter userInput: The text to parse.
    /// - Returns: The gender, or `nil` when the text names none of them.
    public init?(userInput: String) {
        let key = userInput.trimmingCharacters(in: .whitespacesAndNewlines).uppercased()
        self.init(rawValue: key)
    }

    /// The symbol shown on a pet's details: ♂, ♀ or ?.
    public var symbol: String {
        switch self {
        case .male: "♂"
        case .female: "♀"
        case .unknown: "?"
        }
    }

    /// The name shown to people, e.g. "Male".
    public var displayName: String {
        switch self {
        case .male: "Male"
        case .female: "Female"
        case .unknown: "Unknown"
        }
    }
}
