import Foundation
import PetSpot

/// An announcement as the server keeps it: the validated request, the password's slow hash
/// (never the password), the photo's content key, and when it was created and changed.
public struct StoredAnnouncement: Sendable, Hashable {
    public var id: AnnouncementID
    public var request: CreateAnnouncementRequest
    /// bcrypt hash of the management password.
    public var passwordHash: String
    /// The stored photo's key (`<sha256>.jpg`), once one was uploaded.
    public var photoKey: String?
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: AnnouncementID, request: CreateAnnouncementRequest, passwordHash: String,
                photoKey: String? = nil, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.request = request
        self.passwordHash = passwordHash
        self.photoKey = photoKey
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

extension StoredAnnouncement {
    /// The `GET` shape: camelCase, MISSING reported as ACTIVE.
    /// - Parameter photoURL: maps a photo key to its public URL.
    func details(photoURL: (String) -> String) -> PetDetails {
        PetDetails(
            id: id, photoUrl: photoKey.map(photoURL),
            status: request.status == .missing ? .active : .found,
            lastSeenDate: request.lastSeenDate, species: request.species, gender: request.sex,
            description: request.description,
            location: PetLocation(latitude: request.locationLatitude, longitude: request.locationLongitude),
            phone: request.phone, email: request.email, breed: request.breed,
            createdAt: createdAt, updatedAt: updatedAt,
            microchipNumber: request.microchipNumber, reward: request.reward, approximateAge: request.approximateAge)
    }
}
