import Foundation

/// One announcement as `GET /api/v1/announcements/{id}` returns it (camelCase keys), exactly as
/// the seeds' `PetDetails` declares it, plus additive fields.
///
/// ```json
/// {"id": "…", "petName": "Rex", "photoUrl": null, "status": "ACTIVE",
///  "lastSeenDate": "2025-11-18", "species": "DOG", "gender": "MALE",
///  "description": "", "location": "52.2297, 21.0122",
///  "locationLatitude": 52.2297, "locationLongitude": 21.0122,
///  "phone": "+48123456789", "email": "owner@example.com", "breed": "Labrador",
///  "approximateAge": "3", "createdAt": "2025-11-18T10:15:00Z", "updatedAt": "2025-11-18T10:15:00Z"}
/// ```
///
/// The seeds' types hold on the wire: `petName`, `description`, `location` and `phone` are
/// always strings (`""` where there is nothing to show), `approximateAge` is a string of digits,
/// `email` may be `null`. The numbers of the location travel in the additive
/// `locationLatitude`/`locationLongitude`, which are absent for an announcement filed without a
/// location (the seeds' app sends exactly `0.0, 0.0` then).
public struct PetDetails: Codable, Hashable, Sendable, Identifiable {
    /// The announcement's id.
    public var id: AnnouncementID
    /// The pet's name, or the species in words ("Dog") when the reporter gave none.
    public var petName: String
    /// The photo's URL, once uploaded.
    public var photoUrl: String?
    /// ACTIVE (still missing), FOUND or CLOSED.
    public var status: PetStatus
    /// The day the pet was last seen or found.
    public var lastSeenDate: LocalDate
    /// The species.
    public var species: Species
    /// The sex (the seeds call it gender); may be UNKNOWN.
    public var gender: Gender
    /// A free-text description; `""` when the report has none.
    public var description: String
    /// Where the pet was last seen or found, in words: the place once places are known, else the
    /// coordinates written out ("52.2297, 21.0122"), or ``PetDetails/noLocationText``.
    public var location: String
    /// The reporter's phone number; `""` when it is not shown (a closed announcement).
    public var phone: String
    /// The reporter's email address; `nil` when it is not shown.
    public var email: String?
    /// The breed, when known.
    public var breed: String?
    /// How far around the location to look, in whole kilometres.
    public var locationRadius: Int?
    /// The microchip number's digits, when given.
    public var microchipNumber: String?
    /// The age in whole years the reporter gave, as digits ("3"), when given.
    public var approximateAge: String?
    /// The reward offered, when given.
    public var reward: String?
    /// When the announcement was created.
    public var createdAt: Date
    /// When the announcement last changed.
    public var updatedAt: Date
    /// Degrees north of the place last seen (additive); `nil` when no location was given.
    public var locationLatitude: Double?
    /// Degrees east of the place last seen (additive); `nil` when no location was given.
    public var locationLongitude: Double?
    /// The photo in other sizes and formats, narrowest first, when the server offers them
    /// (additive: clients that do not know it keep using ``photoUrl``).
    public var photoVariants: [PhotoVariantLink]?
    /// What it was filed as, MISSING or FOUND, kept when it is closed (additive).
    public var reportKind: AnnouncementStatus?
    /// How its owner closed it (additive); `nil` while it is open.
    public var closedOutcome: ClosedOutcome?
    /// When its owner closed it (additive); `nil` while it is open.
    public var closedAt: Date?
    /// How far it is from the point a list was searched near, in km (additive; only in a list
    /// searched with `near` or `near_place`).
    public var distanceKm: Double?

    /// What ``location`` says for an announcement filed without a location.
    public static let noLocationText = "Location not given"

    /// Creates pet details.
    public init(
        id: AnnouncementID, petName: String, photoUrl: String? = nil, status: PetStatus,
        lastSeenDate: LocalDate, species: Species, gender: Gender, description: String = "",
        location: String, phone: String, email: String?, breed: String? = nil,
        locationRadius: Int? = nil, microchipNumber: String? = nil, approximateAge: String? = nil,
        reward: String? = nil, createdAt: Date, updatedAt: Date,
        locationLatitude: Double? = nil, locationLongitude: Double? = nil,
        photoVariants: [PhotoVariantLink]? = nil, reportKind: AnnouncementStatus? = nil,
        closedOutcome: ClosedOutcome? = nil, closedAt: Date? = nil
    ) {
        self.reportKind = reportKind
        self.closedOutcome = closedOutcome
        self.closedAt = closedAt
        self.id = id
        self.petName = petName
        self.photoUrl = photoUrl
        self.status = status
        self.lastSeenDate = lastSeenDate
        self.species = species
        self.gender = gender
        self.description = description
        self.location = location
        self.phone = phone
        self.email = email
        self.breed = breed
        self.locationRadius = locationRadius
        self.microchipNumber = microchipNumber
        self.approximateAge = approximateAge
        self.reward = reward
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.locationLatitude = locationLatitude
        self.locationLongitude = locationLongitude
        self.photoVariants = photoVariants
    }

    /// The coordinates, when the announcement has a location.
    public var coordinates: PetLocation? {
        guard let locationLatitude, let locationLongitude else { return nil }
        return PetLocation(latitude: locationLatitude, longitude: locationLongitude)
    }

    /// The age in whole years, when the reporter gave one.
    public var ageInYears: Int? {
        approximateAge.flatMap { Int($0) }
    }

    enum CodingKeys: String, CodingKey {
        case id, petName, photoUrl, status, lastSeenDate, species, gender, description, location, phone, email
        case breed, locationRadius, microchipNumber, approximateAge, reward, createdAt, updatedAt
        case locationLatitude, locationLongitude, photoVariants, reportKind, closedOutcome, closedAt, distanceKm
    }

    /// Encodes the seeds' keys, with `"photoUrl": null` and `"email": null` written out (the
    /// seeds declare both nullable) and the other absent optionals left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(petName, forKey: .petName)
        try container.encode(photoUrl, forKey: .photoUrl)
        try container.encode(status, forKey: .status)
        try container.encode(lastSeenDate, forKey: .lastSeenDate)
        try container.encode(species, forKey: .species)
        try container.encode(gender, forKey: .gender)
        try container.encode(description, forKey: .description)
        try container.encode(location, forKey: .location)
        try container.encode(phone, forKey: .phone)
        try container.encode(email, forKey: .email)
        try container.encodeIfPresent(breed, forKey: .breed)
        try container.encodeIfPresent(locationRadius, forKey: .locationRadius)
        try container.encodeIfPresent(microchipNumber, forKey: .microchipNumber)
        try container.encodeIfPresent(approximateAge, forKey: .approximateAge)
        try container.encodeIfPresent(reward, forKey: .reward)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encodeIfPresent(locationLatitude, forKey: .locationLatitude)
        try container.encodeIfPresent(locationLongitude, forKey: .locationLongitude)
        try container.encodeIfPresent(photoVariants, forKey: .photoVariants)
        try container.encodeIfPresent(reportKind, forKey: .reportKind)
        try container.encodeIfPresent(closedOutcome, forKey: .closedOutcome)
        try container.encodeIfPresent(closedAt, forKey: .closedAt)
        try container.encodeIfPresent(distanceKm, forKey: .distanceKm)
    }

    /// Whether it was filed as a found pet (closed ones included).
    public var isFoundReport: Bool {
        reportKind.map { $0 == .found } ?? (status == .found)
    }
}

/// One size and format of an announcement's photo: `{"width": 640, "height": 480,
/// "format": "webp", "url": "…/photos/<digest>/w640.webp"}`.
public struct PhotoVariantLink: Codable, Hashable, Sendable {
    /// Pixels.
    public var width: Int
    public var height: Int
    /// `jpeg` or `webp`.
    public var format: String
    public var url: String

    public init(width: Int, height: Int, format: String, url: String) {
        self.width = width
        self.height = height
        self.format = format
        self.url = url
    }
}

/// A point on Earth in degrees.
public struct PetLocation: Codable, Hashable, Sendable {
    /// Degrees north (negative: south), −90…90.
    public var latitude: Double
    /// Degrees east (negative: west), −180…180.
    public var longitude: Double

    /// Creates a location.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Whether this is a real place: the seeds' app sends exactly (0, 0) when the person gave
    /// no location, and nobody reports a pet lost in the Gulf of Guinea.
    public var isGiven: Bool { !(latitude == 0 && longitude == 0) }

    /// The coordinates written out to four decimals (about 11 m): "52.2297, 21.0122".
    public var text: String {
        "\(Self.degrees(latitude)), \(Self.degrees(longitude))"
    }

    private static func degrees(_ value: Double) -> String {
        let scaled = (value * 10_000).rounded() / 10_000
        var text = String(format: "%.4f", scaled)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }
}
