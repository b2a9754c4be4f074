/// A report draft turned into the strings a summary shows, one per field, the way
/// ``PetDetailsPresentation`` shows a published announcement.
///
/// Gender is ♂ / ♀ / ?; the date reads `Nov 18, 2025`; the chip number is grouped
/// `12345-67890-12345`; anything absent or blank reads ``PetDetailsPresentation/placeholder``
/// ("—"). Values are shown as entered, even invalid ones: validation says what is wrong.
public struct ReportDraftPresentation: Hashable, Sendable {
    /// "MISSING" or "FOUND".
    public let status: String
    /// The pet's name, or `nil` when none was given.
    public let name: String?
    /// The species, e.g. "Dog".
    public let species: String
    /// The breed, e.g. "Labrador".
    public let breed: String
    /// ♂, ♀ or ?.
    public let gender: String
    /// The age, e.g. "4 years".
    public let age: String
    /// The day last seen or found, e.g. "Nov 18, 2025".
    public let lastSeenDate: String
    /// The coordinates, e.g. "52.2297, 21.0122".
    public let location: String
    /// The chip number, e.g. "12345-67890-12345".
    public let microchipNumber: String
    /// The description.
    public let description: String
    /// The phone number as typed.
    public let phone: String
    /// The email address.
    public let email: String
    /// The reward offered.
    public let reward: String
    /// The cached photo, e.g. "image/jpeg, 1600 × 1200".
    public let photo: String
    /// The found flow's caregiver phone; `nil` in the missing flow.
    public let caregiverPhone: String?
    /// The found flow's current address; `nil` in the missing flow.
    public let foundAddress: String?

    /// Formats every field of a missing-pet draft.
    public init(_ draft: MissingReportDraft) {
        self.init(status: .missing, microchip: draft.microchip, photo: draft.photo,
                  animal: draft.animal, contact: draft.contact, caregiverPhone: nil, foundAddress: nil)
    }

    /// Formats every field of a found-pet draft.
    public init(_ draft: FoundReportDraft) {
        self.init(status: .found, microchip: draft.microchip, photo: draft.photo,
                  animal: draft.animal, contact: draft.contact,
                  caregiverPhone: draft.caregiverPhone, foundAddress: draft.foundAddress)
    }

    private init(
        status: AnnouncementStatus, microchip: MicrochipNumber, photo: PhotoReference?,
        animal: AnimalDescriptionDetails, contact: OwnerContactDetails,
        caregiverPhone: String?, foundAddress: String?
    ) {
        let show = Self.orPlaceholder
        self.status = status.rawValue
        name = animal.nameToSend
        species = show(animal.species?.displayName)
        breed = show(animal.breed)
        gender = show(animal.gender?.symbol)
        age = show(animal.age.map { "\($0) year\($0 == 1 ? "" : "s")" })
        lastSeenDate = show(animal.lastSeenDate?.displayString)
        location = switch (animal.latitude, animal.longitude) {
        case (nil, nil): PetDetailsPresentation.placeholder
        case let (latitude, longitude):
            "\(latitude.map { "\($0)" } ?? "?"), \(longitude.map { "\($0)" } ?? "?")"
        }
        microchipNumber = show(microchip.formatted)
        description = show(animal.description)
        phone = show(contact.phone)
        email = show(contact.email)
        reward = show(contact.reward)
        self.photo = show(photo.map { "\($0.mimeType), \($0.width) × \($0.height)" })
        self.caregiverPhone = caregiverPhone.map(show)
        self.foundAddress = foundAddress.map(show)
    }

    /// The text trimmed, or the placeholder when absent or blank.
    private static func orPlaceholder(_ text: String?) -> String {
        text?.nonBlankTrimmed ?? PetDetailsPresentation.placeholder
    }
}
