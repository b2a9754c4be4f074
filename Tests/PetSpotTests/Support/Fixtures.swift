import Foundation
import PetSpot

/// Sample values shared by the tests: a complete, valid report and its pieces.
enum Fixtures {
    /// The day the tests treat as today.
    static let today = LocalDate(year: 2025, month: 11, day: 18)!
    static let yesterday = LocalDate(year: 2025, month: 11, day: 17)!
    static let tomorrow = LocalDate(year: 2025, month: 11, day: 19)!

    static let photo = PhotoReference(
        cacheKey: "sha256-abc123", path: "/tmp/petspot/ab/abc123.jpg",
        mimeType: "image/jpeg", byteCount: 182_044, width: 1600, height: 1200)

    /// Valid animal details for the missing flow (breed filled in).
    static let animal = AnimalDescriptionDetails(
        species: .dog, breed: "Labrador", gender: .male, age: 4, lastSeenDate: today,
        latitude: 52.2297, longitude: 21.0122, description: "Brown labrador, red collar")

    /// Valid contact details, typed the way people type them.
    static let contact = OwnerContactDetails(
        phone: "+48 123-456-789", email: "  owner@example.com ", reward: "100 PLN")

    /// A missing-pet draft where every step is valid, on its last step.
    static let missingDraft = MissingReportDraft(
        step: .contact, microchip: MicrochipNumber("12345-67890-12345"),
        photo: photo, animal: animal, contact: contact)

    /// A found-pet draft where every step is valid, on its last step.
    static let foundDraft = FoundReportDraft(
        step: .contact, photo: photo,
        animal: AnimalDescriptionDetails(
            species: .cat, gender: .female, lastSeenDate: yesterday,
            latitude: -33.8688, longitude: 151.2093),
        contact: OwnerContactDetails(phone: "0412345678", email: "finder@example.org"),
        caregiverPhone: "+61 298 765 432", foundAddress: "12 George St, Sydney")

    /// The request JSON the contract example produces, keys sorted.
    static let missingRequestJSON = #"{"description":"Brown labrador, red collar","email":"owner@example.com","#
        + #""last_seen_date":"2025-11-18","location_latitude":52.2297,"location_longitude":21.0122,"#
        + #""microchip_number":"123456789012345","phone":"+48123456789","reward":"100 PLN","#
        + #""sex":"MALE","species":"DOG","status":"MISSING"}"#
}

extension Encodable {
    /// The value as a JSON string with the shared PetSpot settings.
    func jsonString() throws -> String {
        String(decoding: try PetSpotJSON.encode(self), as: UTF8.self)
    }
}
