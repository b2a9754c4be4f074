import Foundation
import PetSpot

/// The one-time sign-in link an owner who lost the management password asks for by email
/// (``ManageForgot``): `/mail/sign-in/<id>.<generation>.<expiry>.v<key>.<MAC>`, the MAC being
/// HMAC-SHA256 of the announcement's id, its session generation and the expiry (unix seconds)
/// under a key derived from the password keys (``SignedFields``).
///
/// - **Once.** Following it (a `POST` from its page, never the `GET` a link scanner makes)
///   moves the announcement's session generation on only if it is still the one in the link,
///   in one statement: the link then names a generation that has passed, on every replica, and
///   so does every other link sent before it; two posts of it at once sign one browser in.
///   Moving the generation on also ends the owner's other sessions, as a new password does:
///   someone who lost the password may have lost the device it was typed on.
/// - **An hour.** The expiry is an hour after it was asked for; a link is refused after it
///   whatever the generation.
/// - **Nothing stored.** The outbox row of the message holds the announcement, the address and
///   when it was asked for; the link is made from them only when the message is sent (and made
///   the same again if it is sent twice), so a copy of the database holds no way in.
struct SignInLink: Sendable, Equatable {
    static let lifetime: TimeInterval = 3600
    static let pathPrefix = "/mail/sign-in/"

    var id: AnnouncementID
    var generation: Int
    /// Unix seconds.
    var expires: Int

    /// The link for `announcement` as it is now, asked for at `askedAt`.
    init(_ announcement: StoredAnnouncement, askedAt: Date) {
        self.init(id: announcement.id, generation: announcement.sessionGeneration,
                  expires: Int(askedAt.timeIntervalSince1970 + Self.lifetime))
    }

    init(id: AnnouncementID, generation: Int, expires: Int) {
        self.id = id
        self.generation = generation
        self.expires = expires
    }

    /// The path's last segment, signed with the keyring's current key.
    func token(keyring: PasswordKeyring) -> String {
        let key = keyring.writeKey
        let mac = Self.signature.code(fields, key: key)
        return "\(id.rawValue).\(generation).\(expires).v\(key.version).\(Base64URL.encode(mac))"
    }

    /// The link a token stands for, when this server made it (under any of the keyring's keys).
    static func verify(_ token: String, keyring: PasswordKeyring) -> SignInLink? {
        guard token.utf8.count <= 160 else { return nil }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 5, let id = AnnouncementID(rawValue: String(parts[0])),
              let generation = Int(parts[1]), generation >= 0, let expires = Int(parts[2]),
              parts[3].hasPrefix("v"), let version = Int(parts[3].dropFirst()),
              let key = keyring.keys.first(where: { $0.version == version }),
              let mac = Base64URL.decode(parts[4]) else { return nil }
        let link = SignInLink(id: id, generation: generation, expires: expires)
        return signature.verify(mac, fields: link.fields, key: key) ? link : nil
    }

    /// What a genuine link can still do now for `announcement` (its current row).
    enum State: Sendable, Equatable {
        case usable
        /// Past its hour.
        case expired
        /// Followed already (this link or a later one), or the owner signed out or made a new
        /// password since.
        case used
    }

    func state(for announcement: StoredAnnouncement, now: Date) -> State {
        if Int(now.timeIntervalSince1970) >= expires { return .expired }
        return announcement.sessionGeneration == generation ? .usable : .used
    }

    private var fields: [String] { [id.rawValue, String(generation), String(expires)] }

    private static let signature = SignedFields(salt: "petspot-sign-in-link", label: "petspot-sign-in-link-v1")
}
