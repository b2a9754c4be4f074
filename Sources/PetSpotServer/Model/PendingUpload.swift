import Crypto
import Foundation

/// A photo a report form received and prepared but has not yet attached to an announcement: the
/// form was sent back with problems, or the page's script sent the photo ahead of the form. The
/// prepared photo is in the photo store under its content key (so it is shown as the form's
/// thumbnail and attached by reference, never sent again); the row ties it to the form by a
/// random token and to the browser that sent it. Nobody else can use it, and it is forgotten
/// after ``lifetime`` (``PendingUploadSweep``).
public struct PendingUpload: Sendable, Hashable {
    /// SHA-256 of the token the form carries (the token itself is never stored).
    public var tokenDigest: String
    /// ``FormProtection/Browser/digest`` of the browser that sent it.
    public var browserDigest: String
    /// The prepared photo's key in the photo store.
    public var photoKey: String
    public var width: Int
    public var height: Int
    /// Where the original photo says it was taken (its EXIF GPS), to offer for the report's
    /// location; the prepared photo keeps no GPS.
    public var latitude: Double?
    public var longitude: Double?
    public var createdAt: Date

    public init(tokenDigest: String, browserDigest: String, photoKey: String, width: Int, height: Int,
                latitude: Double? = nil, longitude: Double? = nil, createdAt: Date) {
        self.tokenDigest = tokenDigest
        self.browserDigest = browserDigest
        self.photoKey = photoKey
        self.width = width
        self.height = height
        self.latitude = latitude
        self.longitude = longitude
        self.createdAt = createdAt
    }

    /// How long a pending photo is kept for a form that was never sent again.
    public static let lifetime: TimeInterval = 24 * 3600
    /// How old a pending photo may be to be attached: an hour less than its lifetime, so the
    /// sweep never removes the photo of an announcement being created.
    public static let usableFor: TimeInterval = 23 * 3600

    /// A new random token (32 bytes, base64url) for a form to carry.
    static func newToken() -> String {
        Base64URL.randomToken()
    }

    /// The digest stored for `token`.
    static func digest(ofToken token: String) -> String {
        SHA256.hash(data: Data("petspot-pending-upload-v1:\(token)".utf8)).hex
    }

    /// Whether `token` is shaped like one of ours (43 base64url characters).
    static func isWellFormed(_ token: String) -> Bool {
        Base64URL.isToken(token)
    }
}
