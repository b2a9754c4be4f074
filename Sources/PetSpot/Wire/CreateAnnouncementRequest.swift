/// The body of `POST /api/v1/announcements`, with the contract's snake_case keys.
///
/// Optional fields that are `nil` are left out of the JSON entirely (not sent as `null`).
/// Build one from a finished draft with `makeRequest`, or directly (e.g. in the server's
/// tests); ``validate(today:)`` checks it against the contract's rules.
public struct CreateAnnouncementRequest: Codable, Hashable, Sendable {
    /// The species (`species`).
    public var species: Species
    /// The sex (`sex`): MALE, FEMALE or UNKNOWN.
    public var sex: Gender
    /// The day last seen or found, `YYYY-MM-DD` in the reporter's time zone (`last_seen_date`).
    public var lastSeenDate: LocalDate
    /// Latitude in degrees, −90…90 (`location_latitude`).
    public var locationLatitude: Double
    /// Longitude in degrees, −180…180 (`location_longitude`).
    public var locationLongitude: Double
    /// The reporter's email address (`email`).
    public var email: String
    /// The reporter's phone number, 7–15 digits (`phone`).
    public var phone: String
    /// MISSING or FOUND (`status`).
    public var status: AnnouncementStatus
    /// At most 15 digits (`microchip_number`); omitted when `nil`.
    public var microchipNumber: String?
    /// At most 500 characters (`description`); omitted when `nil`.
    public var description: String?
    /// At most 120 characters (`reward`); omitted when `nil`.
    public var reward: String?
    /// The breed, at most 100 characters (`breed`); omitted when `nil`. An addition to the contract.
    public var breed: String?
    /// The age in whole years, 0–40 (`approximate_age`); omitted when `nil`. An addition to the contract.
    public var approximateAge: Int?
    /// The pet's name, at most 100 characters (`pet_name`); omitted when `nil`. An addition to
    /// the contract (the found flow's state has one); without it the details name the species.
    public var petName: String?

    /// Creates a request body.
    public init(
        species: Species, sex: Gender, lastSeenDate: LocalDate,
        locationLatitude: Double, locationLongitude: Double,
        email: String, phone: String, status: AnnouncementStatus,
        microchipNumber: String? = nil, description: String? = nil, reward: String? = nil,
        breed: String? = nil, approximateAge: Int? = nil, petName: String? = nil
    ) {
        self.species = species
        self.sex = sex
        self.lastSeenDate = lastSeenDate
        self.locationLatitude = locationLatitude
        self.locationLongitude = locationLongitude
        self.email = email
        self.phone = phone
        self.status = status
        self.microchipNumber = microchipNumber
        self.description = description
        self.reward = reward
        self.breed = breed
        self.approximateAge = approximateAge
        self.petName = petName
    }

    /// The contract's JSON keys.
    enum CodingKeys: String, CodingKey {
        case species, sex, email, phone, status, description, reward, breed
        case approximateAge = "approximate_age"
        case petName = "pet_name"
        case lastSeenDate = "last_seen_date"
        case locationLatitude = "location_latitude"
        case locationLongitude = "location_longitude"
        case microchipNumber = "microchip_number"
    }
}
