import Crypto
import Foundation

/// Keeps the first response to a create request that carried an `Idempotency-Key`, so a retry
/// gets the same id and management password — without storing the password readable.
///
/// The row holds SHA-256 of the key (to find it) and the response sealed with AES-GCM under a
/// key derived from the Idempotency-Key and the server's password key (HKDF-SHA256): nothing in
/// the database opens it without both.
enum IdempotencyVault {
    /// The longest key accepted, in bytes.
    static let maximumKeyLength = 255

    /// Whether a header value can be a key: 1–255 visible ASCII characters.
    static func isValidKey(_ key: String) -> Bool {
        !key.isEmpty && key.utf8.count <= maximumKeyLength && key.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }

    /// How the row is found.
    static func digest(ofKey key: String) -> String {
        SHA256.hash(data: Data(("petspot-idempotency-v1:" + key).utf8)).hex
    }

    /// SHA-256 of the canonical request bytes: the same request, however it was spaced.
    static func digest(ofRequest canonicalJSON: Data) -> String {
        SHA256.hash(data: canonicalJSON).hex
    }

    /// Seals under a key derived from the Idempotency-Key and the password write key: the row
    /// opens only for a client presenting the same Idempotency-Key to a server holding the keys.
    /// Written as `0x02`, the password key's version (4 bytes, big-endian), then AES-GCM's box.
    static func seal(_ response: Data, key: String, keyring: PasswordKeyring) throws -> [UInt8] {
        let server = keyring.writeKey
        guard let combined = try AES.GCM.seal(response, using: symmetricKey(for: key, server: server)).combined else {
            throw CryptoKitError.incorrectParameterSize
        }
        return [Self.keyedFormat] + withUnsafeBytes(of: UInt32(server.version).bigEndian, Array.init) + [UInt8](combined)
    }

    /// Opens a sealed response; a row sealed before the password keys existed (the Idempotency-Key
    /// alone, kept at most a day) still opens until it is purged.
    static func open(_ sealed: [UInt8], key: String, keyring: PasswordKeyring) throws -> Data {
        if sealed.first == Self.keyedFormat, sealed.count > 5 {
            let version = sealed[1..<5].reduce(0) { $0 << 8 | Int($1) }
            if let server = keyring.keys.first(where: { $0.version == version }),
               let opened = try? AES.GCM.open(AES.GCM.SealedBox(combined: sealed[5...]), using: symmetricKey(for: key, server: server)) {
                return opened
            }
        }
        // A legacy box whose random nonce happens to begin with the format byte lands here too.
        return try AES.GCM.open(AES.GCM.SealedBox(combined: sealed), using: legacyKey(for: key))
    }

    private static let keyedFormat: UInt8 = 0x02

    private static func symmetricKey(for key: String, server: PasswordKeyring.Key) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: server.key, salt: Data(key.utf8),
                               info: Data("petspot-idempotency-seal-v2".utf8), outputByteCount: 32)
    }

    private static func legacyKey(for key: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: Data(key.utf8)),
                               salt: Data("petspot-idempotency-seal".utf8), info: Data("v1".utf8), outputByteCount: 32)
    }

}
