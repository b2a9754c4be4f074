import Foundation

/// The kind of animal an announcement is about.
///
/// The raw value is the wire spelling the announcements API uses (`DOG`, `CAT`, …).
public enum Species: String, CaseIterable, Codable, Hashable, Sendable {
    case dog = "DOG"
    case cat = "CAT"
    case bird = "BIRD"
    case rabbit = "RABBIT"
    case rodent = "RODENT"
    case reptile = "REPTILE"
    case other = "OTHER"

    /// Parses what a person typed, ignoring case and surrounding whitespace.
    ///
    /// `"dog"`, `"Dog"`, `" DOG "` all give ``dog``.
    /// - Parameter userInput: The text to parse.
    /// - Returns: The species, or `nil` when the text names none of them.
    public init?(userInput: String) {
        let key = userInput.trimmingCharacters(in: .whitespacesAndNewlines).uppercased()
        self.init(rawValue: key)
    }

    /// The name shown to people, e.g. "Dog".
    public var displayName: String {
        switch self {
        case .dog: "Dog"
        case .cat: "Cat"
        case .bird: "Bird"
        case .rabbit: "Rabbit"
        case .rodent: "Rodent"
        case .reptile: "Reptile"
        case .other: "Other"
        }
    }
}
