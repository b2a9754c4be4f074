import Foundation
import PetSpot

/// What the routes work with: storage behind its protocols, the password hasher, the throttle,
/// the photo processor, and the settings that shape answers.
struct ServerServices: Sendable {
    let store: any AnnouncementStoring
    let photos: any PhotoStoring
    let hasher: PasswordHasher
    let throttle: AuthThrottle
    /// Who a request comes from (the peer, or `X-Forwarded-For` from a trusted proxy).
    let clientAddress: ClientAddress
    let processor: PhotoProcessor
    /// Where incoming photo parts are staged (inside the data directory).
    let uploadDirectory: String
    /// The base of the URLs handed out, without a trailing slash.
    let publicURL: PublicURL
    let maxPhotoBytes: Int
    /// How long an Idempotency-Key is remembered.
    let idempotencyWindow: TimeInterval = 24 * 3600
    let now: @Sendable () -> Date
    /// Per-client token buckets for creates, uploads and list pages.
    var rateLimiter = RateLimiter(limits: RateLimits())
    /// Uploads received or processed at once.
    var uploadAdmission = UploadAdmission(limit: 32)

    /// Where stored photos are served: `/photos/{key}`.
    static let photoPathPrefix = "/photos"

    /// The public URL of a stored photo.
    func photoURL(for key: String) -> String {
        "\(publicURL.current)\(Self.photoPathPrefix)/\(key)"
    }
}
