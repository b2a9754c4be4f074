import Crypto
import Foundation

/// An HMAC-SHA256 over length-prefixed fields, under a key derived from one of the keyring's
/// keys for one purpose: what the forms' CSRF tokens and the owner's session cookies are signed
/// with. Each purpose has its own derived key and label, so a value signed for one can never
/// stand for another, and the keyring's keys themselves never sign anything directly.
struct SignedFields: Sendable {
    /// HKDF's salt for this purpose, e.g. `petspot-form-token`.
    let salt: String
    /// What the signed bytes start with, e.g. `petspot-form-v1`.
    let label: String

    /// The code for `fields` (each prefixed with its UTF-8 length, so no two lists of fields
    /// sign the same bytes).
    func code(_ fields: [String], key: PasswordKeyring.Key) -> [UInt8] {
        let derived = HKDF<SHA256>.deriveKey(inputKeyMaterial: key.key, salt: Data(salt.utf8),
                                             info: Data("v1".utf8), outputByteCount: 32)
        var input = Data(label.utf8)
        for field in fields {
            let bytes = Data(field.utf8)
            withUnsafeBytes(of: UInt32(bytes.count).bigEndian) { input.append(contentsOf: $0) }
            input.append(bytes)
        }
        return [UInt8](HMAC<SHA256>.authenticationCode(for: input, using: derived))
    }

    /// Whether `given` is the code for `fields`, in time that does not depend on where they differ.
    func verify(_ given: [UInt8], fields: [String], key: PasswordKeyring.Key) -> Bool {
        ConstantTime.equal(code(fields, key: key), given)
    }
}
