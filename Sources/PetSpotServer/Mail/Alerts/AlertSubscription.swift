import Foundation
import PetSpot

/// An address following an area: where (a point, a radius and the place's name as the list
/// showed it), which reports (species, missing or found), and how often. Nothing else about the
/// person is kept; unsubscribing erases the row and everything queued for it.
public struct AlertSubscription: Sendable, Equatable {
    public enum Cadence: String, Sendable, CaseIterable {
        /// A message for each new report.
        case each
        /// One message a day with the day's new reports (none on a day without any).
        case daily
    }

    /// Random, lower-case UUID: the link tokens name it.
    public var id: String
    public var email: String
    public var latitude: Double
    public var longitude: Double
    public var radiusKm: Double
    /// The place as the list page named it ("Mokotów, Warsaw, Poland").
    public var place: String
    public var species: Species?
    public var status: AnnouncementStatus?
    public var cadence: Cadence
    public var createdAt: Date
    /// `nil` until its confirmation link is followed; nothing but the confirmation is sent before.
    public var confirmedAt: Date?
    /// The reports created after this go in the next digest.
    public var digestAfter: Date

    public init(id: String = UUID().uuidString.lowercased(), email: String, latitude: Double, longitude: Double, radiusKm: Double,
                place: String, species: Species?, status: AnnouncementStatus?, cadence: Cadence, createdAt: Date,
                confirmedAt: Date? = nil, digestAfter: Date? = nil) {
        self.id = id
        self.email = email
        self.latitude = latitude
        self.longitude = longitude
        self.radiusKm = radiusKm
        self.place = place
        self.species = species
        self.status = status
        self.cadence = cadence
        self.createdAt = createdAt
        self.confirmedAt = confirmedAt
        self.digestAfter = digestAfter ?? createdAt
    }

    /// The list's filter for this subscription's reports.
    var filter: AnnouncementFilter { AnnouncementFilter(species: species, status: status) }

    /// Whether `announcement` is one this subscription follows: open, of its species and kind,
    /// within its radius.
    func follows(_ announcement: StoredAnnouncement) -> Bool {
        let request = announcement.request
        guard !announcement.isClosed, announcement.deletedAt == nil,
              species.map({ $0 == request.species }) ?? true, status.map({ $0 == request.status }) ?? true,
              PetLocation(latitude: request.locationLatitude, longitude: request.locationLongitude).isGiven else { return false }
        return Place.distanceKm((latitude, longitude), (request.locationLatitude, request.locationLongitude)) <= radiusKm
    }

    /// "missing dogs within 5 km of Mokotów, Warsaw, Poland".
    var areaDescription: String {
        let kind = switch status {
        case .missing?: "missing"
        case .found?: "found"
        case nil: "missing and found"
        }
        let what = species.map { $0.displayName.lowercased() + "s" } ?? "pets"
        let km = radiusKm == radiusKm.rounded() ? String(Int(radiusKm)) : String(radiusKm)
        return "\(kind) \(what) within \(km) km of \(place)"
    }
}
