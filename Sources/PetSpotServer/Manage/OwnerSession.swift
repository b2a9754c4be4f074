import Crypto
import Foundation
import Hummingbird
import PetSpot

/// The owner's session in a browser, after the management password was accepted: a cookie
/// scoped to one announcement's manage pages that any replica checks without keeping anything in
/// memory.
///
/// The cookie (``cookieName``, `Path=/pets/{id}/manage`, `HttpOnly`, `SameSite=Strict`,
/// `Secure` when the request came over HTTPS, ``lifetime``) holds
/// `v<key version>.<session generation>.<expiry, unix seconds>.<MAC>`, the MAC being HMAC-SHA256
/// of the announcement's id, the generation and the expiry under a key derived (HKDF) from the
/// server's password key. The id is not in the value but in the MAC: a cookie made for one
/// announcement opens no other.
///
/// Ending a session the server cannot remember: the announcement's row holds a session
/// generation, written into every cookie. Signing out and a new password add one to it, which
/// ends every session of that announcement on every device and replica at once; a take-down
/// ends them because the announcement is gone. A cookie past its expiry is refused whatever its
/// `Max-Age` told the browser.
struct OwnerSession: Sendable {
    static let cookieName = "petspot_owner"
    /// How long a session lasts without being used: each page the owner loads renews it.
    static let lifetime = 30 * 60

    let keyring: PasswordKeyring

    /// The manage pages' path of `id`, the cookie's path.
    static func path(_ id: AnnouncementID) -> String { "/pets/\(id.rawValue)/manage" }

    /// A cookie for a session of `announcement` from `now`.
    func cookie(for announcement: StoredAnnouncement, now: Date, secure: Bool) -> Cookie {
        let expires = Int(now.timeIntervalSince1970) + Self.lifetime
        let key = keyring.writeKey
        let mac = Self.mac(id: announcement.id, generation: announcement.sessionGeneration, expires: expires, key: key)
        let value = "v\(key.version).\(announcement.sessionGeneration).\(expires).\(Base64URL.encode(mac))"
        return Cookie(name: Self.cookieName, value: value, maxAge: Self.lifetime, path: Self.path(announcement.id),
                      secure: secure, httpOnly: true, sameSite: .strict)
    }

    /// The `Set-Cookie` that removes the session from the browser.
    static func deletion(_ id: AnnouncementID, secure: Bool) -> Cookie {
        Cookie(name: cookieName, value: "", maxAge: 0, path: path(id), secure: secure, httpOnly: true, sameSite: .strict)
    }

    /// What the request's cookie says about `announcement`.
    enum Verdict: Sendable, Equatable {
        /// A session of this announcement, still current.
        case signedIn
        /// No session cookie.
        case none
        /// A cookie that was once good: past its time, or ended by a sign-out or a new password.
        case ended
        /// A cookie this server did not make for this announcement.
        case invalid
    }

    func verify(_ request: Request, for announcement: StoredAnnouncement, now: Date) -> Verdict {
        // Several cookies of the name can come (a browser sends every path's); one must hold.
        let values = Self.values(in: request)
        guard !values.isEmpty else { return .none }
        var verdict = Verdict.invalid
        for value in values {
            switch check(value, for: announcement, now: now) {
            case .signedIn: return .signedIn
            case .ended: verdict = .ended
            default: break
            }
        }
        return verdict
    }

    private func check(_ value: String, for announcement: StoredAnnouncement, now: Date) -> Verdict {
        guard value.utf8.count <= 128 else { return .invalid }
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0].hasPrefix("v"), let version = Int(parts[0].dropFirst()),
              let key = keyring.keys.first(where: { $0.version == version }),
              let generation = Int(parts[1]), generation >= 0, let expires = Int(parts[2]),
              let mac = Base64URL.decode(parts[3]) else { return .invalid }
        guard Self.signature.verify(mac, fields: [announcement.id.rawValue, String(generation), String(expires)], key: key) else {
            return .invalid
        }
        let seconds = Int(now.timeIntervalSince1970)
        // Replicas' clocks may differ a little: a cookie from one a few minutes ahead still holds.
        guard generation == announcement.sessionGeneration, expires > seconds, expires <= seconds + Self.lifetime + 300 else {
            return .ended
        }
        return .signedIn
    }

    /// Every value of the session cookie the request carries (a browser holding sessions of
    /// nested paths sends each).
    private static func values(in request: Request) -> [String] {
        request.headers[values: .cookie].flatMap { $0.split(separator: ";") }.compactMap { pair in
            let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard halves.count == 2, halves[0].trimmingCharacters(in: .whitespaces) == cookieName else { return nil }
            return halves[1].trimmingCharacters(in: .whitespaces)
        }
    }

    private static let signature = SignedFields(salt: "petspot-owner-session", label: "petspot-owner-session-v1")

    private static func mac(id: AnnouncementID, generation: Int, expires: Int, key: PasswordKeyring.Key) -> [UInt8] {
        Self.signature.code([id.rawValue, String(generation), String(expires)], key: key)
    }
}
