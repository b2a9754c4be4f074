import Crypto

/// SHA-256 as the cache uses it: hex text.
enum Digest {
    /// SHA-256 of `bytes`, as 64 lower-case hex characters.
    static func sha256(_ bytes: [UInt8]) -> String {
        Hex.string(SHA256.hash(data: bytes))
    }
}
