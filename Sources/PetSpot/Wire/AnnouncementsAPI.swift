import Foundation

/// The paths of the announcements API, shared by the client and the server.
public enum AnnouncementsAPI {
    /// `POST` to create, `GET` to list: `/api/v1/announcements`.
    public static let collectionPath = "/api/v1/announcements"

    /// `GET` one announcement: `/api/v1/announcements/{id}`.
    public static func announcementPath(id: AnnouncementID) -> String {
        "\(collectionPath)/\(id.rawValue)"
    }

    /// `POST` its photo: `/api/v1/announcements/{id}/photos`.
    public static func photosPath(id: AnnouncementID) -> String {
        "\(announcementPath(id: id))/photos"
    }

    /// The multipart form field that carries the photo: `photo`.
    public static let photoPartName = "photo"
}
