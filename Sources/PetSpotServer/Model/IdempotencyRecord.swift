import Foundation
import PetSpot

/// What the server remembers of a create request that carried an `Idempotency-Key`: digests
/// of the key and of the request, and the first response sealed so that only a holder of the
/// key can open it (it holds the management password; see ``IdempotencyVault``).
public struct IdempotencyRecord: Sendable, Hashable {
    /// SHA-256 of the key, hex.
    public var keyDigest: String
    /// SHA-256 of the canonical request JSON, hex.
    public var requestDigest: String
    public var announcementID: AnnouncementID
    /// AES-GCM sealed box of the first response body.
    public var sealedResponse: [UInt8]
    public var createdAt: Date

    public init(keyDigest: String, requestDigest: String, announcementID: AnnouncementID, sealedResponse: [UInt8], createdAt: Date) {
        self.keyDigest = keyDigest
        self.requestDigest = requestDigest
        self.announcementID = announcementID
        self.sealedResponse = sealedResponse
        self.createdAt = createdAt
    }
}
