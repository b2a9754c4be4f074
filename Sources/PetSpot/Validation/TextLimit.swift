/// A hard cap on the length of a free-text field: characters (grapheme clusters, what a person
/// counts) and UTF-8 bytes (what every page, feed and flyer that shows the text costs).
///
/// The byte cap is ten bytes a character on average, generous for any script people write in
/// (Latin with accents 1–2, Greek, Cyrillic, Arabic and Hebrew 2, Devanagari, Thai and CJK 3–6,
/// decomposed Hangul 9) and for the emoji people put in a name or a description (4–8, a family or
/// a flag up to 25 each, among other text). A character can otherwise be any length: a base letter
/// with sixty combining marks is one character of 121 bytes, and five hundred of them make a
/// description 60 KB that every list and feed repeats.
///
/// Caps are enforced twice, on purpose:
/// - **at input**: assigning to a capped property of a form value (``OwnerContactDetails/reward``,
///   ``AnimalDescriptionDetails/description``, ``FoundReportDraft/foundAddress``) truncates, like a
///   text field's max length, so typing never produces an invalid value;
/// - **at validation**: initialisers and decoding keep what they are given (nothing is silently
///   lost from a persisted draft or a request), and `validate` rejects anything over either cap.
public struct TextLimit: Hashable, Sendable {
    /// The field the cap applies to.
    public let field: FormField
    /// The most characters allowed.
    public let maximumCharacters: Int
    /// The most UTF-8 bytes allowed.
    public let maximumBytes: Int

    /// UTF-8 bytes a character may take on average, for the byte cap.
    public static let bytesPerCharacter = 10

    /// - Parameter maximumBytes: the byte cap; ``bytesPerCharacter`` per character when not given.
    public init(field: FormField, maximumCharacters: Int, maximumBytes: Int? = nil) {
        self.field = field
        self.maximumCharacters = maximumCharacters
        self.maximumBytes = maximumBytes ?? maximumCharacters * Self.bytesPerCharacter
    }

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
    /// An email address: at most 254 bytes, the most SMTP carries (RFC 5321, 4.5.3.1.3).
    public static let email = TextLimit(field: .email, maximumCharacters: 254, maximumBytes: 254)
    /// A phone number as typed (only its digits are kept): room for spaces, dashes and brackets.
    public static let phone = TextLimit(field: .phone, maximumCharacters: 40, maximumBytes: 80)

    /// The field's name in messages.
    private var name: String { field == .foundAddress ? "Address" : field.label }

    /// The message for a text over the character cap, e.g. "Reward must be at most 120 characters".
    public var message: String {
        "\(name) must be at most \(maximumCharacters) characters"
    }

    /// The message for a text within the character cap but over the byte cap, e.g. "Reward must
    /// be at most 1200 bytes of text (accents, emoji and many scripts take several bytes a character)".
    public var byteMessage: String {
        "\(name) must be at most \(maximumBytes) bytes of text (accents, emoji and many scripts take several bytes a character)"
    }

    /// The text cut to both caps (unchanged when it fits), whole characters only.
    public func truncating(_ text: String) -> String {
        var cut = text.count > maximumCharacters ? String(text.prefix(maximumCharacters)) : text
        if cut.utf8.count > maximumBytes {
            var bytes = 0
            cut = String(cut.prefix { character in
                bytes += character.utf8.count
                return bytes <= maximumBytes
            })
        }
        return cut
    }

    /// The issue for a text over a cap (the character cap's first), or `nil` when it fits.
    public func validate(_ text: String?) -> ValidationIssue? {
        guard let text, let message = problem(with: text) else { return nil }
        return ValidationIssue(field: field, message: message)
    }

    /// The message for `text` over a cap, or `nil` when it fits. The byte count (constant time)
    /// is looked at first, so a huge text is not walked character by character.
    public func problem(with text: String) -> String? {
        let bytes = text.utf8.count
        if bytes <= maximumCharacters { return nil }
        if text.count > maximumCharacters { return message }
        return bytes > maximumBytes ? byteMessage : nil
    }
}
