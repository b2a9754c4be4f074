import Foundation
import PetSpot
@testable import PetSpotServer

extension StoredAnnouncement {
    /// A missing dog's row as the store holds it, made now, for checks that need no store.
    static func sample(_ id: String, generation: Int = 0) -> StoredAnnouncement {
        let request = CreateAnnouncementRequest(species: .dog, sex: .male, lastSeenDate: LocalDate("2025-11-18")!,
                                                locationLatitude: 52.2, locationLongitude: 21.0, email: "a@example.org",
                                                phone: "+48600123456", status: .missing)
        return StoredAnnouncement(id: AnnouncementID(rawValue: id)!, request: request, passwordHash: "", createdAt: Date(),
                                  updatedAt: Date(), sessionGeneration: generation)
    }
}
