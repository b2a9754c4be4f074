import Foundation
import PetSpot

/// Where a listing page starts: after the announcement with this position (newest first).
///
/// On the wire it is opaque: `v1.<position>` in base64url, so clients pass it back as is.
public struct PageCursor: Sendable, Hashable {
    /// The storage's insertion order of the last announcement on the previous page.
    public var position: Int64

    public init(position: Int64) {
        self.position = position
    }

    /// Reads a cursor a client sent back; `nil` when it is not one this server wrote.
    init?(token: String) {
        guard let text = OpaqueToken.decode(token, maxLength: 64), text.hasPrefix("v1."),
              let position = Int64(text.dropFirst(3)), position > 0 else { return nil }
        self.position = position
    }

    /// The opaque token.
    var token: String { OpaqueToken.encode("v1.\(position)") }
}

/// Which announcements a page lists: the open ones (all, or one species, or one kind, or
/// both), or with ``closed`` the closed ones instead.
public struct AnnouncementFilter: Sendable, Hashable {
    public var species: Species?
    /// The kind it was filed as.
    public var status: AnnouncementStatus?
    /// Closed announcements only; open ones only when `false`.
    public var closed: Bool
    /// Only the open announcements with this microchip number (its digits), when given.
    public var chip: String?

    public init(species: Species? = nil, status: AnnouncementStatus? = nil, closed: Bool = false, chip: String? = nil) {
        self.species = species
        self.status = status
        self.closed = closed
        self.chip = chip
    }

    public static let all = AnnouncementFilter()

    /// The filter of a list's query, `species` (dog, cat, …) and `status` (missing, found or
    /// closed, any case), empty values meaning all; 400 naming the parameter otherwise.
    static func parse(species: String?, status: String?, chip: String? = nil) throws(APIFailure) -> AnnouncementFilter {
        var filter = AnnouncementFilter.all
        if let chip {
            filter.chip = try ChipSearch.digits(chip)
            if status?.uppercased() == "CLOSED" {
                throw .malformed("chip finds open announcements only: leave out status=closed.", field: "chip")
            }
        }
        if let species, !species.isEmpty {
            guard let value = Species(rawValue: species.uppercased()) else {
                throw .malformed("There is no species \"\(species.prefix(40))\": choose one of \(Species.allCases.map { $0.rawValue.lowercased() }.joined(separator: ", ")).", field: "species")
            }
            filter.species = value
        }
        if let status, !status.isEmpty {
            if status.uppercased() == "CLOSED" {
                filter.closed = true
            } else {
                guard let value = AnnouncementStatus(rawValue: status.uppercased()) else {
                    throw .malformed("The status is missing, found or closed, not \"\(status.prefix(40))\".", field: "status")
                }
                filter.status = value
            }
        }
        return filter
    }
}

/// One page of announcements, newest first, and where the next page starts.
public struct AnnouncementPage: Sendable {
    public var announcements: [StoredAnnouncement]
    public var next: PageCursor?

    public init(announcements: [StoredAnnouncement], next: PageCursor?) {
        self.announcements = announcements
        self.next = next
    }
}

/// `GET /api/v1/announcements`: `{"data": [PetDetails…], "next_cursor": "…" | null}`.
struct AnnouncementListBody: Encodable {
    var data: [PetDetails]
    var nextCursor: String?
    /// The point a list was searched near, when by a place's name.
    var near: NearPlace?

    enum CodingKeys: String, CodingKey {
        case data
        case nextCursor = "next_cursor"
        case near
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(data, forKey: .data)
        if let nextCursor { try container.encode(nextCursor, forKey: .nextCursor) } else { try container.encodeNil(forKey: .nextCursor) }
        try container.encodeIfPresent(near, forKey: .near)
    }
}

/// A search around a point: within `radiusKm`, nearest first, with the list's filters and the
/// earliest last-seen date.
public struct NearSearch: Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double
    public var radiusKm: Double
    public var filter: AnnouncementFilter
    public var since: LocalDate?
    /// Newest first instead of nearest first (a feed of an area).
    public var newestFirst = false

    public init(latitude: Double, longitude: Double, radiusKm: Double, filter: AnnouncementFilter = .all, since: LocalDate? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.radiusKm = radiusKm
        self.filter = filter
        self.since = since
    }

    /// The latitude and longitude ranges that hold the circle (the longitude range split in two
    /// where it crosses ±180°).
    var box: (latitude: ClosedRange<Double>, longitude: [ClosedRange<Double>]) {
        let latitudeSpan = radiusKm / 110.5
        let latitudes = max(-90, latitude - latitudeSpan)...min(90, latitude + latitudeSpan)
        let cosine = cos(min(89.9, abs(latitude) + latitudeSpan) * .pi / 180)
        let longitudeSpan = cosine < 0.01 ? 180 : min(180, latitudeSpan / cosine)
        if longitudeSpan >= 180 { return (latitudes, [-180...180]) }
        var ranges = [max(-180, longitude - longitudeSpan)...min(180, longitude + longitudeSpan)]
        if longitude - longitudeSpan < -180 { ranges.append((longitude - longitudeSpan + 360)...180) }
        if longitude + longitudeSpan > 180 { ranges.append(-180...(longitude + longitudeSpan - 360)) }
        return (latitudes, ranges)
    }
}

/// Where a page of a search near a point starts: after the announcement at this distance and
/// position (nearest first, then newest). Opaque on the wire, as ``PageCursor``.
public struct NearCursor: Sendable, Hashable {
    /// ``NearSearch/metric`` of the last announcement on the previous page.
    public var metric: Double
    public var position: Int64

    init(metric: Double, position: Int64) {
        self.metric = metric
        self.position = position
    }

    init?(token: String) {
        guard let text = OpaqueToken.decode(token, maxLength: 96),
              text.hasPrefix("n1."), case let parts = text.dropFirst(3).split(separator: "."), parts.count == 2,
              let bits = UInt64(parts[0], radix: 16), let position = Int64(parts[1]), position > 0 else { return nil }
        let metric = Double(bitPattern: bits)
        guard metric.isFinite, metric >= 0 else { return nil }
        self.init(metric: metric, position: position)
    }

    var token: String { OpaqueToken.encode("n1.\(String(metric.bitPattern, radix: 16)).\(position)") }
}

/// One page of a search near a point: announcements with their great-circle distances in km,
/// nearest first.
public struct NearPage: Sendable {
    public var announcements: [(StoredAnnouncement, distanceKm: Double)]
    public var next: NearCursor?
}

/// Cursor text as clients see it: base64url without padding, so it passes through a query
/// string as it is.
enum OpaqueToken {
    static func encode(_ text: String) -> String {
        Data(text.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The text of a token at most `maxLength` characters long, or `nil` when it is not one.
    static func decode(_ token: String, maxLength: Int) -> String? {
        guard token.count <= maxLength else { return nil }
        var base64 = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).flatMap { String(data: $0, encoding: .utf8) }
    }
}

extension NearSearch {
    /// The page the stores answer from what their queries found — (position, announcement,
    /// metric) rows, at most `limit + 1` per longitude range — in the search's order.
    func page(of rows: [(Int64, StoredAnnouncement, Double)], limit: Int) -> NearPage {
        let ordered = rows.sorted { newestFirst ? $0.0 > $1.0 : ($0.2 < $1.2 || ($0.2 == $1.2 && $0.0 > $1.0)) }
        let shown = ordered.prefix(limit)
        let next = ordered.count > limit ? shown.last.map { NearCursor(metric: $0.2, position: $0.0) } : nil
        return NearPage(announcements: shown.map { ($0.1, distanceKm: distanceKm(to: $0.1)) }, next: next)
    }

    /// Kilometres per degree of latitude.
    static let kmPerDegree = 111.195

    /// The distance both stores order by: squared degrees on a plane around the search point,
    /// longitude scaled by the cosine of its latitude (equirectangular; within 0.5 % of the
    /// great-circle distance inside the 200 km the radius allows, and computable in SQL without
    /// trigonometry, so the database sorts and pages by it). `longitudeScale` is that cosine.
    var longitudeScale: Double { cos(latitude * .pi / 180) }

    /// ``metric`` of the radius.
    var radiusMetric: Double { (radiusKm / Self.kmPerDegree) * (radiusKm / Self.kmPerDegree) }

    /// The great-circle distance to `announcement`'s location, in km (what a list reports; the
    /// order is the metric's).
    func distanceKm(to announcement: StoredAnnouncement) -> Double {
        Place.distanceKm((latitude, longitude), (announcement.request.locationLatitude, announcement.request.locationLongitude))
    }
}
