/// What the animal looks like and where and when it was last seen: the forms' description
/// (missing flow) or pet details (found flow) step.
///
/// Every field starts empty; ``validate(today:breedRequired:)`` says what is still missing.
/// Breed (at most 100 characters) and age are sent as the create request's `breed` and
/// `approximate_age`, our additions to the contract. ``description`` is capped at 500
/// characters (see ``TextLimit`` for how caps are enforced).
public struct AnimalDescriptionDetails: Codable, Hashable, Sendable {
    /// The pet's name, when the reporter knows it (at most 100 characters); optional.
    public var name: String?
    /// The species; required.
    public var species: Species?
    /// The breed or race, free text; required in the missing flow, optional in the found flow.
    public var breed: String
    /// The gender; required, male or female.
    public var gender: Gender?
    /// The age in whole years; optional, 0–40.
    public var age: Int?
    /// The day the animal was last seen (or found), in the reporter's time zone; required, not in the future.
    public var lastSeenDate: LocalDate?
    /// Where it was last seen (or found): latitude in degrees, −90…90; required.
    public var latitude: Double?
    /// Where it was last seen (or found): longitude in degrees, −180…180; required.
    public var longitude: Double?
    /// A free-text description; empty means none. Assigning truncates to 500 characters.
    public var description: String {
        didSet { description = TextLimit.description.truncating(description) }
    }

    /// Creates details. Values are kept as given, even invalid ones: `validate` reports those.
    public init(
        species: Species? = nil, breed: String = "", gender: Gender? = nil, age: Int? = nil,
        lastSeenDate: LocalDate? = nil, latitude: Double? = nil, longitude: Double? = nil,
        description: String = "", name: String? = nil
    ) {
        self.name = name
        self.species = species
        self.breed = breed
        self.gender = gender
        self.age = age
        self.lastSeenDate = lastSeenDate
        self.latitude = latitude
        self.longitude = longitude
        self.description = description
    }

    /// The breed to send: trimmed, or `nil` when blank.
    public var breedToSend: String? { breed.nonBlankTrimmed }

    /// The name to send: trimmed, or `nil` when blank.
    public var nameToSend: String? { name?.nonBlankTrimmed }

    /// The description to send: trimmed, or `nil` when blank.
    public var descriptionToSend: String? { description.nonBlankTrimmed }

    /// Every problem with the details, in form order.
    /// - Parameters:
    ///   - today: Today in the reporter's time zone; the date may not be after it.
    ///   - breedRequired: `true` in the missing flow, where the breed/race must be filled in.
    ///   - sexUnknownAllowed: `true` in the found flow: a finder may not be able to tell.
    /// - Returns: One issue per invalid field; empty when all are valid.
    public func validate(today: LocalDate, breedRequired: Bool, sexUnknownAllowed: Bool = false) -> [ValidationIssue] {
        [
            FormRules.species(species),
            breedRequired ? FormRules.breed(breed) : nil,
            FormRules.gender(gender, unknownAllowed: sexUnknownAllowed),
            FormRules.age(age),
            FormRules.lastSeenDate(lastSeenDate, today: today),
            FormRules.latitude(latitude),
            FormRules.longitude(longitude),
            TextLimit.breed.validate(breed),
            TextLimit.petName.validate(name),
            TextLimit.description.validate(description),
        ].compactMap(\.self)
    }
}
