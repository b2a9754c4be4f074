/// One item of `GET /api/v1/announcements/{id}/matches`: an open report of the other kind that
/// could be the same pet, with the reasons for its score; no contact details (its page has them).
public struct PossibleMatch: Codable, Hashable, Sendable {
    public var id: AnnouncementID
    public var status: PetStatus
    public var species: Species
    public var breed: String?
    public var location: String
    public var lastSeenDate: LocalDate
    public var photoUrl: String?
    /// The match's public page.
    public var url: String
    public var distanceKm: Double
    public var daysApart: Int
    public var score: Double
    /// "3.1 km", "2 days later", "both 'labrador'", "similar colours".
    public var reasons: [String]

    public init(id: AnnouncementID, status: PetStatus, species: Species, breed: String?, location: String, lastSeenDate: LocalDate,
                photoUrl: String?, url: String, distanceKm: Double, daysApart: Int, score: Double, reasons: [String]) {
        self.id = id
        self.status = status
        self.species = species
        self.breed = breed
        self.location = location
        self.lastSeenDate = lastSeenDate
        self.photoUrl = photoUrl
        self.url = url
        self.distanceKm = distanceKm
        self.daysApart = daysApart
        self.score = score
        self.reasons = reasons
    }
}

/// The body of `GET /api/v1/announcements/{id}/matches`.
public struct PossibleMatchList: Codable, Sendable {
    public var data: [PossibleMatch]

    public init(data: [PossibleMatch]) {
        self.data = data
    }
}
