import Foundation

/// A ``PetDetails`` turned into the strings a screen or a CLI shows, one per field.
///
/// ACTIVE reads "MISSING"; gender is ♂ / ♀ / ?; dates read `Nov 18, 2025` whatever the
/// locale; the radius reads `±5 km`; the chip number is grouped `12345-67890-12345`; any
/// value that is absent or blank reads ``placeholder`` ("—").
public struct PetDetailsPresentation: Hashable, Sendable {
    /// What an absent value shows: an em dash.
    public static let placeholder = "—"

    /// "MISSING", "FOUND", "REUNITED" or "CLOSED".
    public let status: String
    /// The pet's name, e.g. "Rex".
    public let name: String
    /// The species, e.g. "Dog".
    public let species: String
    /// The breed, e.g. "Labrador".
    public let breed: String
    /// ♂, ♀ or ?.
    public let gender: String
    /// The age the reporter gave, e.g. "3 years", "under a year".
    public let age: String
    /// The day last seen or found, e.g. "Nov 18, 2025".
    public let lastSeenDate: String
    /// Where, in words: the place, the coordinates ("52.2297, 21.0122") or "Location not given".
    public let location: String
    /// How far around the location to look, e.g. "±5 km".
    public let radius: String
    /// The chip number, e.g. "12345-67890-12345".
    public let microchipNumber: String
    /// The description.
    public let description: String
    /// The phone number.
    public let phone: String
    /// The email address.
    public let email: String
    /// The reward offered.
    public let reward: String
    /// The photo's URL.
    public let photoURL: String
    /// The creation day, e.g. "Nov 18, 2025".
    public let createdAt: String
    /// The day of the last change, e.g. "Nov 18, 2025".
    public let updatedAt: String

    /// Formats every field of `details`.
    /// - Parameters:
    ///   - details: The announcement to show.
    ///   - timeZone: The time zone whose calendar day the creation and update instants show as.
    public init(_ details: PetDetails, timeZone: TimeZone = .current) {
        let show = Self.orPlaceholder
        status = details.status == .closed ? (details.closedOutcome == .reunited ? "REUNITED" : "CLOSED") : details.status.displayLabel
        name = show(details.petName)
        species = details.species.displayName
        breed = show(details.breed)
        gender = details.gender.symbol
        age = show(details.ageInYears.map(Self.ageText) ?? details.approximateAge)
        lastSeenDate = details.lastSeenDate.displayString
        location = show(details.location)
        radius = details.locationRadius.map { "±\($0) km" } ?? Self.placeholder
        microchipNumber = show(details.microchipNumber.map { MicrochipNumber($0).formatted })
        description = show(details.description)
        phone = show(details.phone)
        email = show(details.email)
        reward = show(details.reward)
        photoURL = show(details.photoUrl)
        createdAt = LocalDate.displayString(for: details.createdAt, in: timeZone)
        updatedAt = LocalDate.displayString(for: details.updatedAt, in: timeZone)
    }

    /// An age in words: "under a year", "1 year", "3 years".
    public static func ageText(_ years: Int) -> String {
        years == 0 ? "under a year" : years == 1 ? "1 year" : "\(years) years"
    }

    /// The text trimmed, or ``placeholder`` when absent or blank.
    private static func orPlaceholder(_ text: String?) -> String {
        text?.nonBlankTrimmed ?? placeholder
    }
}
