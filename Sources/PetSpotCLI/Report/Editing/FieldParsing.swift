import PetSpot

/// Reads the text of one field as that field's kind of value.
enum FieldParsing {
    /// The species as people type them: "dog, cat, bird, rabbit, rodent, reptile, other".
    static let speciesChoices = Species.allCases.map { $0.rawValue.lowercased() }.joined(separator: ", ")

    /// `dog`, `Cat`, ` BIRD ` … (any case).
    static func species(_ text: String) throws(AnswerError) -> Species {
        guard let species = Species(userInput: text) else { throw .unknownSpecies(text) }
        return species
    }

    /// `male`, `female` or `unknown`, also `m` / `f` (any case); the flow's rule decides whether
    /// unknown is allowed (a found pet's only).
    static func gender(_ text: String) throws(AnswerError) -> Gender {
        switch text.lowercased() {
        case "m": return .male
        case "f": return .female
        default:
            guard let gender = Gender(userInput: text) else { throw .unknownGender(text) }
            return gender
        }
    }

    /// A whole number such as `4` (out-of-range values are left to the rules).
    static func wholeNumber(_ text: String, for field: FormField) throws(AnswerError) -> Int {
        guard let number = Int(text) else { throw .notAWholeNumber(field, text) }
        return number
    }

    /// A strict `YYYY-MM-DD` day, or `today` / `yesterday`.
    static func date(_ text: String, today: LocalDate) throws(AnswerError) -> LocalDate {
        switch text.lowercased() {
        case "today": return today
        case "yesterday": return today.previousDay
        default:
            guard let date = LocalDate(text) else { throw .notADate(text) }
            return date
        }
    }

    /// Decimal degrees such as `52.2297` or `-0.1276`; not NaN or infinite (out-of-range values
    /// are left to the rules).
    static func degrees(_ text: String, for field: FormField) throws(AnswerError) -> Double {
        guard let value = Double(text), value.isFinite else { throw .notANumber(field, text) }
        return value
    }
}

extension LocalDate {
    /// The calendar day before this one.
    var previousDay: LocalDate {
        if day > 1 { return LocalDate(year: year, month: month, day: day - 1) ?? self }
        if month > 1 {
            return (28...31).reversed().lazy.compactMap { LocalDate(year: year, month: month - 1, day: $0) }.first ?? self
        }
        return LocalDate(year: year - 1, month: 12, day: 31) ?? self
    }
}
