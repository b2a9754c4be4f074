import Crypto
import Foundation

/// The tokens in the links mail carries: what the link does and to what, signed with a key
/// derived from the password key every replica shares, so a link works on any replica, nothing
/// about it is stored, and nobody can make one for another announcement or subscription.
///
/// `m.<announcement>.v1.<mac>` turns possible-match mail off for an announcement;
/// `c.<subscription>.v1.<mac>` confirms an area subscription, `u.<subscription>.v1.<mac>` ends
/// it. The MAC is HMAC-SHA256 over the purpose and the id, its first 16 bytes in base64url.
struct MailLinks: Sendable {
    let keyring: PasswordKeyring

    enum Purpose: String, Sendable {
        case matchMailOff = "m"
        case confirmSubscription = "c"
        case unsubscribe = "u"
    }

    func token(_ purpose: Purpose, id: String) -> String {
        let key = keyring.writeKey
        return "\(purpose.rawValue).\(id).v\(key.version).\(Self.mac(purpose, id: id, key: key))"
    }

    /// The id a token is for, when it is a genuine token for `purpose` under any of the keys.
    func verify(_ token: String, for purpose: Purpose) -> String? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard token.utf8.count <= 120, parts.count == 4, parts[0] == purpose.rawValue, UUID(uuidString: String(parts[1])) != nil,
              parts[2].hasPrefix("v"), let version = Int(parts[2].dropFirst()),
              let key = keyring.keys.first(where: { $0.version == version }) else { return nil }
        let id = String(parts[1])
        return ConstantTime.equal(Array(Self.mac(purpose, id: id, key: key).utf8), Array(parts[3].utf8)) ? id : nil
    }

    private static func mac(_ purpose: Purpose, id: String, key: PasswordKeyring.Key) -> String {
        let derived = HKDF<SHA256>.deriveKey(inputKeyMaterial: key.key, info: Data("petspot-mail-links-v1".utf8), outputByteCount: 32)
        let code = HMAC<SHA256>.authenticationCode(for: Data("\(purpose.rawValue).\(id)".utf8), using: derived)
        return Base64URL.encode(code.prefix(16))
    }
}
