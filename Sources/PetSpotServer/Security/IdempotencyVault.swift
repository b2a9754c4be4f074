import Crypto
import Foundation

/// Keeps the first response to a create request that carried an `Idempotency-Key`, so a retry
/// gets the same id and management password — without storing the password readable.
///
/// The row holds SHA-256 of the key (to find it) and the response sealed with AES-GCM under a
/// key derived from the Idempotency-Key itself (HKDF-SHA256). Only a client presenting the same
/// key can open it; a leaked database gives the bcrypt hashes and nothing more.
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

    static func seal(_ response: Data, key: String) throws -> [UInt8] {
        guard let combined = try AES.GCM.seal(response, using: symmetricKey(for: key)).combined else {
            throw CryptoKitError.incorrectParameterSize
        }
        return [UInt8](combined)
    }

    static func open(_ sealed: [UInt8], key: String) throws -> Data {
        try AES.GCM.open(AES.GCM.SealedBox(combined: sealed), using: symmetricKey(for: key))
    }

    private static func symmetricKey(for key: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: Data(key.utf8)),
                               salt: Data("petspot-idempotency-seal".utf8), info: Data("v1".utf8), outputByteCount: 32)
    }

}
