/// The body of a `201` answer to `POST /api/v1/announcements/{id}/photos`: `{"photo_url": …}`.
public struct PhotoUploadResponse: Codable, Hashable, Sendable {
    /// Where the uploaded photo can be fetched (`photo_url`).
    public var photoURL: String

    /// Creates a response body.
    public init(photoURL: String) {
        self.photoURL = photoURL
    }

    enum CodingKeys: String, CodingKey {
        case photoURL = "photo_url"
    }
}
