import Crypto

extension Sequence<UInt8> {
    /// Lower-case hex, two digits a byte: SHA-256 digests (photo keys, idempotency lookups,
    /// SigV4 payload hashes) and HMACs (SigV4 signatures).
    var hex: String { map { String(format: "%02x", $0) }.joined() }
}
