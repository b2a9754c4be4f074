/// A field of the report forms, so each validation problem can be shown next to its input.
public enum FormField: String, CaseIterable, Codable, Hashable, Sendable {
    case microchipNumber
    case petName
    case photo
    case species
    case breed
    case gender
    case age
    case lastSeenDate
    case latitude
    case longitude
    case description
    case phone
    case email
    case reward
    /// The found flow's optional phone number of whoever looks after the pet; never sent.
    case caregiverPhone
    /// The found flow's address where the pet is now; never sent.
    case foundAddress

    /// The label a form or a CLI prints for the field, e.g. "Last seen date".
    public var label: String {
        switch self {
        case .microchipNumber: "Microchip number"
        case .petName: "Pet name"
        case .photo: "Photo"
        case .species: "Species"
        case .breed: "Breed/race"
        case .gender: "Sex"
        case .age: "Age"
        case .lastSeenDate: "Last seen date"
        case .latitude: "Latitude"
        case .longitude: "Longitude"
        case .description: "Description"
        case .phone: "Phone"
        case .email: "Email"
        case .reward: "Reward"
        case .caregiverPhone: "Caregiver phone"
        case .foundAddress: "Current address"
        }
    }

    /// The key of the create-announcement request that carries this field, e.g.
    /// `location_latitude`, or `nil` for fields that are never sent (photo,
    /// caregiver phone, found address). Used as the error body's `field`.
    public var wireKey: String? {
        switch self {
        case .microchipNumber: "microchip_number"
        case .petName: "pet_name"
        case .species: "species"
        case .gender: "sex"
        case .lastSeenDate: "last_seen_date"
        case .latitude: "location_latitude"
        case .longitude: "location_longitude"
        case .description: "description"
        case .phone: "phone"
        case .email: "email"
        case .reward: "reward"
        case .breed: "breed"
        case .age: "approximate_age"
        case .photo, .caregiverPhone, .foundAddress: nil
        }
    }

    /// The field a request key names, e.g. `sex` gives ``gender``.
    /// - Parameter wireKey: A key of the create-announcement request.
    public init?(wireKey: String) {
        guard let field = Self.allCases.first(where: { $0.wireKey == wireKey }) else { return nil }
        self = field
    }
}
