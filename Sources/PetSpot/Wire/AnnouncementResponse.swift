import Foundation

/// The body of a `201` answer to `POST /api/v1/announcements`: the announcement as stored,
/// plus `id`, `management_password` and `photo_url`.
///
/// The request's fields sit at the top level next to the three added keys (the JSON is flat).
/// `photo_url` is always present: `null` until a photo is uploaded.
public struct AnnouncementResponse: Codable, Hashable, Sendable {
    /// The announcement's fields, as sent.
    public var announcement: CreateAnnouncementRequest
    /// The announcement's id (`id`).
    public var id: AnnouncementID
    /// Six digits that, with ``id``, authorise the photo upload (`management_password`).
    public var managementPassword: String
    /// The photo's URL (`photo_url`); `nil` (JSON `null`) on creation.
    public var photoURL: String?

    /// Creates a response body.
    public init(announcement: CreateAnnouncementRequest, id: AnnouncementID, managementPassword: String, photoURL: String? = nil) {
        self.announcement = announcement
        self.id = id
        self.managementPassword = managementPassword
        self.photoURL = photoURL
    }

    /// The credentials the photo upload needs.
    public var credentials: AnnouncementCredentials {
        AnnouncementCredentials(id: id, managementPassword: managementPassword)
    }

    enum CodingKeys: String, CodingKey {
        case id
        case managementPassword = "management_password"
        case photoURL = "photo_url"
    }

    /// Decodes the flat JSON: the request's keys and the three added ones.
    public init(from decoder: any Decoder) throws {
        announcement = try CreateAnnouncementRequest(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(AnnouncementID.self, forKey: .id)
        managementPassword = try container.decode(String.self, forKey: .managementPassword)
        photoURL = try container.decodeIfPresent(String.self, forKey: .photoURL)
    }

    /// Encodes the flat JSON, writing `"photo_url": null` when there is no photo yet.
    public func encode(to encoder: any Encoder) throws {
        try announcement.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(managementPassword, forKey: .managementPassword)
        if let photoURL {
            try container.encode(photoURL, forKey: .photoURL)
        } else {
            try container.encodeNil(forKey: .photoURL)
        }
    }
}
