/// A hard cap on the length of a free-text field, counted in characters (grapheme clusters).
///
/// Caps are enforced twice, on purpose:
/// - **at input**: assigning to a capped property of a form value (``OwnerContactDetails/reward``,
///   ``AnimalDescriptionDetails/description``, ``FoundReportDraft/foundAddress``) truncates, like a
///   text field's max length, so typing never produces an invalid value;
/// - **at validation**: initialisers and decoding keep what they are given (nothing is silently
///   lost from a persisted draft or a request), and `validate` rejects anything over the cap.
public struct TextLimit: Hashable, Sendable {
    /// The field the cap applies to.
    public let field: FormField
    /// The most characters allowed.
    public let maximumCharacters: Int

    /// The reward: at most 120 characters.
    public static let reward = TextLimit(field: .reward, maximumCharacters: 120)
    /// The pet's name: at most 100 characters.
    public static let petName = TextLimit(field: .petName, maximumCharacters: 100)
    /// The breed/race: at most 100 characters.
    public static let breed = TextLimit(field: .breed, maximumCharacters: 100)
    /// The description: at most 500 characters.
    public static let description = TextLimit(field: .description, maximumCharacters: 500)
    /// The found flow's current address: at most 500 characters.
    public static let foundAddress = TextLimit(field: .foundAddress, maximumCharacters: 500)

    /// The message for a text over the cap, e.g. "Reward must be at most 120 characters".
    public var message: String {
        let name = field == .foundAddress ? "Address" : field.label
        return "\(name) must be at most \(maximumCharacters) characters"
    }

    /// The text cut to the cap (unchanged when it fits).
    public func truncating(_ text: String) -> String {
        text.count > maximumCharacters ? String(text.prefix(maximumCharacters)) : text
    }

    /// The issue for a text over the cap, or `nil` when it fits.
    public func validate(_ text: String?) -> ValidationIssue? {
        guard let text, text.count > maximumCharacters else { return nil }
        return ValidationIssue(field: field, message: message)
    }
}
