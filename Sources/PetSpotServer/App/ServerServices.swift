import Foundation
import Logging
import PetSpot
import PhotoPipeline

/// What the routes work with: storage behind its protocols, the password keys, the throttle,
/// the photo processor, and the settings that shape answers.
struct ServerServices: Sendable {
    let store: any AnnouncementStoring
    let photos: any PhotoStoring
    let keyring: PasswordKeyring
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
    /// Flyers and share cards, made on first request.
    var shareArtwork = ShareArtwork()
    /// Place names for coordinates and back; `nil` when the store keeps no gazetteer.
    var gazetteer: Gazetteer?
    /// Mail to owners and followers of an area; `nil` when the server sends none.
    var mail: Mailer?

    /// Photos' colour signatures for matching, kept in the store when it can keep them.
    var signatures: ColourSignatures {
        ColourSignatures(store: store as? any PhotoSignatureStoring, photos: photos)
    }

    /// Where stored photos are served: `/photos/{key}`.
    static let photoPathPrefix = "/photos"

    /// Where `request`'s location is in words, from the gazetteer; `nil` without one, without a
    /// location (the app's `0, 0`), or when no place is near. A failing lookup is logged and
    /// leaves the coordinates shown: it never fails the create or the edit.
    func placeText(for request: CreateAnnouncementRequest, logger: Logger) async -> String? {
        guard let gazetteer, PetLocation(latitude: request.locationLatitude, longitude: request.locationLongitude).isGiven else { return nil }
        do {
            return try await gazetteer.describe(latitude: request.locationLatitude, longitude: request.locationLongitude)
        } catch {
            logger.warning("no place name for an announcement's location: \(error)")
            return nil
        }
    }

    /// The public URL of a stored photo (or of a variant's path below `/photos`).
    func photoURL(for key: String) -> String {
        "\(publicURL.current)\(Self.photoPathPrefix)/\(key)"
    }

    /// The `GET` shapes of `announcements`, in order, each with its photo's variants (the
    /// photos' sizes read at most ``sizeReads`` at a time for a page whose photos are not known
    /// yet, so one listing cannot open a hundred store reads at once).
    /// - Parameter url: maps a path below `/photos` to the URL handed out (the pages use paths
    ///   on their own host; the API, absolute URLs on the public URL).
    ///   - showContact: whether closed announcements show their contact details (the owner asking).
    func details(_ announcements: [StoredAnnouncement], showContact: Bool = false,
                 url: @escaping @Sendable (String) -> String) async -> [PetDetails] {
        var all = announcements.map { $0.details(photoURL: url, showContact: showContact) }
        let keyed = announcements.enumerated().compactMap { index, announcement in announcement.photoKey.map { (index, $0) } }
        await withTaskGroup(of: (Int, [PhotoVariantLink]?).self) { group in
            var pending = keyed.makeIterator()
            for _ in 0..<Self.sizeReads {
                guard let (index, key) = pending.next() else { break }
                group.addTask { (index, await variants.links(for: key, url: url)) }
            }
            for await (index, links) in group {
                all[index].photoVariants = links
                if let (next, key) = pending.next() {
                    group.addTask { (next, await variants.links(for: key, url: url)) }
                }
            }
        }
        return all
    }

    /// Photo headers read at once for one listing.
    static var sizeReads: Int { 8 }

    /// ``details(_:url:)`` with absolute URLs on the public URL (the API's shape).
    func details(_ announcements: [StoredAnnouncement], showContact: Bool = false) async -> [PetDetails] {
        let base = publicURL.current
        return await details(announcements, showContact: showContact) { "\(base)\(Self.photoPathPrefix)/\($0)" }
    }
}
