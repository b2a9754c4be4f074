import Foundation
import PetSpot
import PhotoPipeline

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
    /// The photos' other sizes and formats, made on first request.
    let variants: PhotoVariants
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

    /// The public URL of a stored photo (or of a variant's path below `/photos`).
    func photoURL(for key: String) -> String {
        "\(publicURL.current)\(Self.photoPathPrefix)/\(key)"
    }

    /// The `GET` shapes of `announcements`, in order, each with its photo's variants (their
    /// sizes read at once for a page whose photos are not known yet).
    /// - Parameter url: maps a path below `/photos` to the URL handed out (absolute by default;
    ///   the pages use paths on their own host).
    func details(_ announcements: [StoredAnnouncement], url: @escaping @Sendable (String) -> String) async -> [PetDetails] {
        await withTaskGroup(of: (Int, [PhotoVariantLink]?).self) { group in
            for (index, announcement) in announcements.enumerated() {
                guard let key = announcement.photoKey else { continue }
                group.addTask { (index, await variants.links(for: key, url: url)) }
            }
            var all = announcements.map { $0.details(photoURL: url) }
            for await (index, links) in group { all[index].photoVariants = links }
            return all
        }
    }

    func details(_ announcements: [StoredAnnouncement]) async -> [PetDetails] {
        let base = publicURL.current
        return await details(announcements) { "\(base)\(Self.photoPathPrefix)/\($0)" }
    }

}
