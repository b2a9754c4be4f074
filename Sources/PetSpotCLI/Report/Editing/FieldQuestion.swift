import PetSpot

/// The question the wizard asks for each field.
enum FieldQuestion {
    /// E.g. "Species (dog, cat, bird, rabbit, rodent, reptile, other)" or "Age in years (optional)".
    /// - Parameters:
    ///   - field: The field asked.
    ///   - flow: The flow asking (the date reads "Date found" in the found flow).
    ///   - optional: Whether the field may stay empty.
    static func text(for field: FormField, flow: ReportFlow, optional: Bool) -> String {
        let base: String = switch field {
        case .microchipNumber: "Microchip number (digits)"
        case .petName: "Pet's name"
        case .photo: "Photo file (JPEG, PNG, WebP, HEIC or AVIF)"
        case .species: "Species (\(FieldParsing.speciesChoices))"
        case .breed: "Breed/race"
        case .gender: flow == .found ? "Sex (male, female, unknown)" : "Sex (male, female)"
        case .age: "Age in years"
        case .lastSeenDate: flow == .found ? "Date found (YYYY-MM-DD, today)" : "Last seen date (YYYY-MM-DD, today)"
        case .latitude: "Latitude (-90 to 90), both as \"52.2297, 21.0122\", or a place name"
        case .longitude: "Longitude (-180 to 180)"
        case .description: "Description (up to \(TextLimit.description.maximumCharacters) characters)"
        case .phone: "Phone"
        case .email: "Email"
        case .reward: "Reward"
        case .caregiverPhone: "Phone of whoever looks after the pet now"
        case .foundAddress: "Where the pet is now (address)"
        }
        return optional ? "\(base), optional" : base
    }
}
