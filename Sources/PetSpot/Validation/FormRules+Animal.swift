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

    /// The gender must be male or female (``Gender/unknown`` is refused, as is none).
    public static func gender(_ gender: Gender?) -> ValidationIssue? {
        switch gender {
        case .male, .female: nil
        case .unknown, nil: ValidationIssue(field: .gender, message: ValidationMessage.gender)
        }
    }

    /// The age is optional; when given it must be 0–40.
    public static func age(_ age: Int?) -> ValidationIssue? {
        guard let age, !ageRange.contains(age) else { return nil }
        return ValidationIssue(field: .age, message: ValidationMessage.age)
    }
}
