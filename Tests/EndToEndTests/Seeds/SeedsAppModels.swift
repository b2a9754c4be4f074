import Foundation

/// The seeds' iOS app's wire types, as `../shared/seeds/000_…` (owner's details step) and
/// `001_…` (pet details screen) declare them: the same fields, types, optionality and coding
/// keys, so a test that decodes the server's answers with them fails when the server drifts
/// from what the app reads. Namespaced only so they do not clash with our own `PetDetails`.
enum SeedsApp {
    /// Seed 000: the body of `POST /api/v1/announcements`.
    struct CreateAnnouncementRequest: Codable {
        let species: String                 // "DOG" or "CAT"
        let sex: String                     // "MALE" or "FEMALE"
        let lastSeenDate: String            // ISO 8601 date string (YYYY-MM-DD)
        let locationLatitude: Double
        let locationLongitude: Double
        let email: String
        let phone: String
        let status: String                  // "MISSING" (constant)
        let microchipNumber: String?        // Optional (Step 1)
        let description: String?            // Optional (Step 3)
        let reward: String?                 // Optional (Step 4)

        enum CodingKeys: String, CodingKey {
            case species
            case sex
            case lastSeenDate = "last_seen_date"
            case locationLatitude = "location_latitude"
            case locationLongitude = "location_longitude"
            case email
            case phone
            case status
            case microchipNumber = "microchip_number"
            case description
            case reward
        }
    }

    /// Seed 000: the `201` answer to the create request.
    struct AnnouncementResponse: Codable {
        let id: String                      // UUID (e.g., "bb3fc451-1f51-407d-bb85-2569dc9baed3")
        let managementPassword: String      // 6-digit string (e.g., "467432")
        let species: String
        let sex: String
        let lastSeenDate: String
        let locationLatitude: Double
        let locationLongitude: Double
        let email: String
        let phone: String
        let status: String
        let microchipNumber: String?
        let description: String?
        let reward: String?
        let photoUrl: String?               // Always null (photo uploaded separately)

        enum CodingKeys: String, CodingKey {
            case id
            case managementPassword = "management_password"
            case species
            case sex
            case lastSeenDate = "last_seen_date"
            case locationLatitude = "location_latitude"
            case locationLongitude = "location_longitude"
            case email
            case phone
            case status
            case microchipNumber = "microchip_number"
            case description
            case reward
            case photoUrl = "photo_url"
        }
    }

    /// Seed 001: what `GET /api/v1/announcements/{id}` must decode into.
    struct PetDetails: Identifiable, Codable {
        // MARK: - Required Fields
        let id: String
        let petName: String
        let photoUrl: String?
        let status: String
        let lastSeenDate: String
        let species: String
        let gender: String
        let description: String
        let location: String
        let phone: String

        // MARK: - Optional Fields
        let email: String?
        let breed: String?
        let locationRadius: Int?
        let microchipNumber: String?
        let approximateAge: String?
        let reward: String?

        // MARK: - Metadata (not displayed in UI)
        let createdAt: String
        let updatedAt: String
    }

    /// The create request as the app's mapping builds it (seed 000): the date picker's value
    /// (local midnight of the picked day where the phone is) through `ISO8601DateFormatter`,
    /// `0.0` for a location the person did not give, the phone kept to digits and `+`.
    static func createRequest(species: String = "DOG", sex: String = "MALE", pickedDay: DateComponents, phoneTimeZone: TimeZone,
                              latitude: Double?, longitude: Double?, email: String = "owner@example.com",
                              phone: String = "+48 123 456 789", status: String = "MISSING", microchipNumber: String? = nil,
                              description: String? = nil, reward: String? = nil) -> CreateAnnouncementRequest {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = phoneTimeZone
        let disappearanceDate = calendar.date(from: pickedDay)!
        return CreateAnnouncementRequest(
            species: species, sex: sex,
            lastSeenDate: ISO8601DateFormatter().string(from: disappearanceDate),
            locationLatitude: latitude ?? 0.0, locationLongitude: longitude ?? 0.0,
            email: email.trimmingCharacters(in: .whitespaces),
            phone: phone.filter { $0.isNumber || $0 == "+" },
            status: status, microchipNumber: microchipNumber, description: description, reward: reward)
    }
}
