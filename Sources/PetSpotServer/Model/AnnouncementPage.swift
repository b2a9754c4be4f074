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
        var base64 = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard token.count <= 64, let data = Data(base64Encoded: base64),
              let text = String(data: data, encoding: .utf8), text.hasPrefix("v1."),
              let position = Int64(text.dropFirst(3)), position > 0 else { return nil }
        self.position = position
    }

    /// The opaque token.
    var token: String {
        Data("v1.\(position)".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

/// Which announcements a page lists: the open ones (all, or one species, or one kind, or
/// both), or with ``closed`` the closed ones instead.
public struct AnnouncementFilter: Sendable, Hashable {
    public var species: Species?
    /// The kind it was filed as.
    public var status: AnnouncementStatus?
    /// Closed announcements only; open ones only when `false`.
    public var closed: Bool

    public init(species: Species? = nil, status: AnnouncementStatus? = nil, closed: Bool = false) {
        self.species = species
        self.status = status
        self.closed = closed
    }

    public static let all = AnnouncementFilter()

    /// The filter of a list's query, `species` (dog, cat, …) and `status` (missing, found or
    /// closed, any case), empty values meaning all; 400 naming the parameter otherwise.
    static func parse(species: String?, status: String?) throws(APIFailure) -> AnnouncementFilter {
        var filter = AnnouncementFilter.all
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

    enum CodingKeys: String, CodingKey {
        case data
        case nextCursor = "next_cursor"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(data, forKey: .data)
        if let nextCursor { try container.encode(nextCursor, forKey: .nextCursor) } else { try container.encodeNil(forKey: .nextCursor) }
    }
}
