import PetSpot

/// A value typed for a field (as a flag or at a prompt) that cannot even be read as that
/// field's kind of value. Values that can be read but break a rule (a phone with 3 digits, a
/// date in the future) are kept and reported by validation instead.
enum AnswerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not one of the species.
    case unknownSpecies(String)
    /// Not male, female or unknown.
    case unknownGender(String)
    /// Not a whole number (the age).
    case notAWholeNumber(FormField, String)
    /// Not a `YYYY-MM-DD` date.
    case notADate(String)
    /// Not a decimal number (latitude, longitude).
    case notANumber(FormField, String)
    /// Not something a microchip number can be; the reason is the domain's message.
    case notAChipNumber(String, String)
    /// Longer than the field's cap: refused, never cut to fit (as a chip number is not).
    case tooLong(TextLimit, count: Int)
    /// Within the character cap, over the byte cap (combining marks, many emoji).
    case tooManyBytes(TextLimit, bytes: Int)

    /// A full sentence: what was typed, why it is not a value, and what to type instead.
    var description: String {
        switch self {
        case .unknownSpecies(let text):
            "'\(text)' is not a species; choose one of \(FieldParsing.speciesChoices)."
        case .unknownGender(let text):
            "'\(text)' is not a sex; choose male or female (or unknown, for a found pet)."
        case .notAWholeNumber(let field, let text):
            "'\(text)' is not a whole number; enter the \(field.label.lowercased()) in years, e.g. 4."
        case .notADate(let text):
            "'\(text)' is not a date; write it as YYYY-MM-DD (e.g. 2025-11-18), or 'today' or 'yesterday'."
        case .notAChipNumber(let text, let reason):
            "'\(text)' cannot be a microchip number: \(reason). Leave it empty if the pet has no chip."
        case .tooLong(let limit, let count):
            "\(limit.message), and this text has \(count); shorten it (nothing was cut or saved for this field)."
        case .tooManyBytes(let limit, let bytes):
            "\(limit.byteMessage), and this text has \(bytes); shorten it (nothing was cut or saved for this field)."
        case .notANumber(let field, let text):
            "'\(text)' is not a \(field.label.lowercased()); enter decimal degrees, e.g. \(field == .longitude ? "21.0122" : "52.2297")."
        }
    }
}
