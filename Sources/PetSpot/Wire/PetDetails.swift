import Foundation

/// One announcement as `GET /api/v1/announcements/{id}` returns it (camelCase keys).
///
/// ```json
/// {"id": "…", "petName": "Rex", "photoUrl": null, "status": "ACTIVE",
///  "lastSeenDate": "2025-11-18", "species": "DOG", "gender": "MALE",
///  "description": "…", "location": {"latitude": 52.2297, "longitude": 21.0122},
///  "phone": "+48123456789", "email": "owner@example.com", "breed": "Labrador",
///  "locationRadius": 5, "createdAt": "2025-11-18T10:15:00Z", "updatedAt": "2025-11-18T10:15:00Z"}
/// ```
///
/// `location` is a nested object (``PetLocation``). Optional values may be `null` or absent
/// when decoding and are omitted when encoding. Besides the contract's keys, the optional
/// `microchipNumber`, `reward` and `approximateAge` carry what the create request sent.
public struct PetDetails: Codable, Hashable, Sendable, Identifiable {
    /// The announcement's id.
    public var id: AnnouncementID
    /// The pet's name, when known.
    public var petName: String?
    /// The photo's URL, once uploaded.
    public var photoUrl: String?
    /// ACTIVE (still missing), FOUND or CLOSED.
    public var status: PetStatus
    /// The day the pet was last seen or found.
    public var lastSeenDate: LocalDate
    /// The species.
    public var species: Species
    /// The gender; may be UNKNOWN.
    public var gender: Gender
    /// A free-text description.
    public var description: String?
    /// Where the pet was last seen or found.
    public var location: PetLocation
    /// The reporter's phone number.
    public var phone: String
    /// The reporter's email address.
    public var email: String
    /// The breed, when known.
    public var breed: String?
    /// How far around ``location`` to look, in whole kilometres.
    public var locationRadius: Int?
    /// When the announcement was created.
    public var createdAt: Date
    /// When the announcement last changed.
    public var updatedAt: Date
    /// The microchip number's digits, when given (an addition to the contract's list).
    public var microchipNumber: String?
    /// The reward offered, when given (an addition to the contract's list).
    public var reward: String?
    /// The photo in other sizes and formats, narrowest first, when the server offers them (an
    /// addition to the contract: clients that do not know it keep using ``photoUrl``).
    public var photoVariants: [PhotoVariantLink]?
    /// The age in whole years the reporter gave, when given (an addition to the contract's list).
    public var approximateAge: Int?

    /// Creates pet details.
    public init(
        id: AnnouncementID, petName: String? = nil, photoUrl: String? = nil, status: PetStatus,
        lastSeenDate: LocalDate, species: Species, gender: Gender, description: String? = nil,
        location: PetLocation, phone: String, email: String, breed: String? = nil,
        locationRadius: Int? = nil, createdAt: Date, updatedAt: Date,
        microchipNumber: String? = nil, reward: String? = nil, photoVariants: [PhotoVariantLink]? = nil,
        approximateAge: Int? = nil
    ) {
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
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.microchipNumber = microchipNumber
        self.reward = reward
        self.photoVariants = photoVariants
        self.approximateAge = approximateAge
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

/// A point on Earth in degrees: `{"latitude": 52.2297, "longitude": 21.0122}`.
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
}
