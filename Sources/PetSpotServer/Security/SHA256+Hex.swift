import Crypto

extension SHA256.Digest {
    /// The digest as 64 lower-case hex digits (photo keys, idempotency lookups).
    var hex: String { map { String(format: "%02x", $0) }.joined() }
}
