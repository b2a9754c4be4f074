import Foundation
import Logging
import PetSpot

/// Creates an announcement at most once per Idempotency-Key: what the API's create and the report
/// forms share. A new management password is made and stored only as its keyed form
/// (``PasswordKeyring``); the first answer (id and password) is sealed with the key
/// (``IdempotencyVault``) in the same transaction as the announcement, so a repeat of the request
/// — a retry, a double tap, the back button — finds it and gets the same announcement, and a
/// concurrent twin that lost the race is answered with the winner's record. The mail a new
/// report causes (``ServerServices/outboxForNewReport(_:logger:)``) is written with it.
struct AnnouncementCreation {
    let services: ServerServices

    enum Outcome {
        /// Stored now; `response` is the create answer (``AnnouncementResponse`` as JSON).
        case created(id: AnnouncementID, response: Data)
        /// An earlier or concurrent request with the same key made the announcement.
        case existing(IdempotencyRecord)
    }

    /// The live record of `key`, if an earlier request carried it.
    func existing(key: String?, now: Date) async throws -> IdempotencyRecord? {
        guard let key else { return nil }
        return try await services.store.idempotencyRecord(keyDigest: IdempotencyVault.digest(ofKey: key),
                                                          notBefore: now.addingTimeInterval(-services.idempotencyWindow))
    }

    /// Stores `request` (with its photo already in the photo store under `photoKey`, held there
    /// by the caller) unless `key` was used before.
    /// - Parameters:
    ///   - requestDigest: what a repeat must match to be the same request (``IdempotencyVault/digest(ofRequest:)``).
    ///   - client: the creator's address, which the per-announcement password ceiling trusts.
    func create(_ request: CreateAnnouncementRequest, photoKey: String? = nil, key: String?, requestDigest: String,
                client: String, now: Date, logger: Logger) async throws -> Outcome {
        var generator = SystemRandomNumberGenerator()
        let password = AnnouncementCredentials.makePassword(using: &generator)
        let id = AnnouncementID.random()
        let stored = StoredAnnouncement(id: id, request: request,
                                        passwordHash: services.keyring.seal(id: id.rawValue, password: password),
                                        photoKey: photoKey, createdAt: now, updatedAt: now,
                                        placeText: await services.placeText(for: request, logger: logger))
        let response = try PetSpotJSON.encode(AnnouncementResponse(announcement: request, id: id, managementPassword: password))
        let liveSince = now.addingTimeInterval(-services.idempotencyWindow)
        var record: IdempotencyRecord?
        if let key {
            record = IdempotencyRecord(keyDigest: IdempotencyVault.digest(ofKey: key), requestDigest: requestDigest, announcementID: id,
                                       sealedResponse: try IdempotencyVault.seal(response, key: key, keyring: services.keyring), createdAt: now)
        }
        // The creator's address knows the password: the per-announcement ceiling never holds it
        // (trusted in the same transaction, so a replayed create can never lack it).
        // Its confirmation, match scan and area alerts are written in the same transaction.
        if let winner = try await services.store.insert(stored, idempotency: record, trusting: client, expiringBefore: liveSince,
                                                        outbox: services.outboxForNewReport(stored, logger: logger)) {
            return .existing(winner)
        }
        services.mail?.queued()
        return .created(id: id, response: response)
    }

    /// The first answer of `record`, opened with the key that sealed it.
    func answer(of record: IdempotencyRecord, key: String) throws -> Data {
        try IdempotencyVault.open(record.sealedResponse, key: key, keyring: services.keyring)
    }
}
