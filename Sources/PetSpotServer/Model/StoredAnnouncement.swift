import Foundation
import PetSpot

/// An announcement as the server keeps it: the validated request (whose `status` stays the kind
/// it was filed as, MISSING or FOUND), the password's hash (never the password), the photo's
/// content key, whether and how its owner closed it, and a revision that every change bumps.
public struct StoredAnnouncement: Sendable, Hashable {
    public var id: AnnouncementID
    public var request: CreateAnnouncementRequest
    /// The management password's hash.
    public var passwordHash: String
    /// The stored photo's key (`<sha256>.jpg`), once one was uploaded.
    public var photoKey: String?
    public var createdAt: Date
    public var updatedAt: Date
    /// How the owner closed it; `nil` while it is open.
    public var closedOutcome: ClosedOutcome?
    /// When the owner closed it; `nil` while it is open.
    public var closedAt: Date?
    /// 1 when created, one more after every change: the ETag, which a clock cannot give (two
    /// changes can fall in the same second).
    public var revision: Int
    /// When its owner took it down: the row is a tombstone (410 Gone) whose details are erased.
    public var deletedAt: Date?
    /// Where it is for people ("1.2 km from Mokotów, Warsaw, Poland"), from the gazetteer when
    /// the announcement was created or its location changed; `nil` without a gazetteer, a place
    /// within 30 km or a location.
    public var placeText: String?
    /// The generation of its owner's browser sessions (``OwnerSession``): one more after each
    /// sign-out or new password, which ends every session made before.
    public var sessionGeneration: Int

    public init(id: AnnouncementID, request: CreateAnnouncementRequest, passwordHash: String,
                photoKey: String? = nil, createdAt: Date, updatedAt: Date,
                closedOutcome: ClosedOutcome? = nil, closedAt: Date? = nil, revision: Int = 1,
                deletedAt: Date? = nil, placeText: String? = nil, sessionGeneration: Int = 0) {
        self.sessionGeneration = sessionGeneration
        self.deletedAt = deletedAt
        self.placeText = placeText
        self.id = id
        self.request = request
        self.passwordHash = passwordHash
        self.photoKey = photoKey
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.closedOutcome = closedOutcome
        self.closedAt = closedAt
        self.revision = revision
    }

    /// Whether the owner closed it.
    public var isClosed: Bool { closedOutcome != nil }
}

extension StoredAnnouncement {
    /// The `GET` shape of the seeds' `PetDetails`: MISSING reported as ACTIVE, a closed one as
    /// CLOSED without its contact details unless `showContact` (the owner asking).
    /// - Parameters:
    ///   - photoURL: maps a photo key to its public URL.
    ///   - showContact: whether a closed announcement's phone and email are shown.
    func details(photoURL: (String) -> String, showContact: Bool = false) -> PetDetails {
        let place = PetLocation(latitude: request.locationLatitude, longitude: request.locationLongitude)
        let contactShown = !isClosed || showContact
        return PetDetails(
            id: id, petName: request.petName ?? request.species.displayName, photoUrl: photoKey.map(photoURL),
            status: isClosed ? .closed : request.status == .missing ? .active : .found,
            lastSeenDate: request.lastSeenDate, species: request.species, gender: request.sex,
            description: request.description ?? "",
            location: place.isGiven ? placeText ?? place.text : PetDetails.noLocationText,
            phone: contactShown ? request.phone : "", email: contactShown ? request.email : nil,
            breed: request.breed, microchipNumber: request.microchipNumber,
            approximateAge: request.approximateAge.map(String.init), reward: request.reward,
            createdAt: createdAt, updatedAt: updatedAt,
            locationLatitude: place.isGiven ? place.latitude : nil,
            locationLongitude: place.isGiven ? place.longitude : nil,
            reportKind: request.status, closedOutcome: closedOutcome, closedAt: closedAt)
    }
}
