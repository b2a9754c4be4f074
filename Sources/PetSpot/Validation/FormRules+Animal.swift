import Foundation

extension FormRules {
    /// The youngest and oldest age, in whole years, a form accepts.
    public static let ageRange = 0...40

    /// A species must be chosen.
    public static func species(_ species: Species?) -> ValidationIssue? {
        species == nil ? ValidationIssue(field: .species, message: ValidationMessage.species) : nil
    }

    /// The breed/race must not be empty after trimming (missing flow).
    public static func breed(_ text: String) -> ValidationIssue? {
        text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            ? ValidationIssue(field: .breed, message: ValidationMessage.breed) : nil
    }

    /// The sex must be chosen: male or female, or unknown where `unknownAllowed` (a found pet's,
    /// which the finder may not be able to tell).
    public static func gender(_ gender: Gender?, unknownAllowed: Bool = false) -> ValidationIssue? {
        switch gender {
        case .male, .female: nil
        case .unknown where unknownAllowed: nil
        case .unknown, nil: ValidationIssue(field: .gender, message: ValidationMessage.gender)
        }
    }

    /// The age is optional; when given it must be 0–40.
    public static func age(_ age: Int?) -> ValidationIssue? {
        guard let age, !ageRange.contains(age) else { return nil }
        return ValidationIssue(field: .age, message: ValidationMessage.age)
    }
}
