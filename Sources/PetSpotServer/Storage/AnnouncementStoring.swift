import Foundation
import PetSpot

/// Where announcements, idempotency records and failed password attempts live.
///
/// The routes know only this protocol; SQLite (``SQLiteAnnouncementStore``) is the embedded
/// default, and another database can be added without touching them.
public protocol AnnouncementStoring: Sendable {
    /// Inserts an announcement, its idempotency record when the request carried a key, and
    /// the creator's address as a client the announcement trusts (see ``trustClient(_:for:)``).
    ///
    /// Atomic: all rows or none. When a live record for the same key already exists (a
    /// concurrent or earlier request won), nothing is inserted and that record is returned.
    /// - Parameters:
    ///   - expiringBefore: idempotency records created before this are treated as gone.
    ///   - outbox: the mail and mail work the new announcement causes (its confirmation, looking
    ///     for its matches, alerting its area), written in the same transaction.
    func insert(_ announcement: StoredAnnouncement, idempotency: IdempotencyRecord?, trusting creator: String?,
                expiringBefore: Date, outbox: [OutboxItem]) async throws -> IdempotencyRecord?

    /// The live idempotency record for a key digest, if any.
    func idempotencyRecord(keyDigest: String, notBefore: Date) async throws -> IdempotencyRecord?

    /// The announcement, unless it was taken down (see ``lookup(id:)``).
    func announcement(id: AnnouncementID) async throws -> StoredAnnouncement?

    /// The announcement, or that it was taken down, or that there never was one.
    func lookup(id: AnnouncementID) async throws -> AnnouncementLookup

    /// Writes `changed`'s fields, closing and `updatedAt` over the stored row and bumps its
    /// revision, when the row is live and still at `changed.revision`.
    /// `outbox` (looking for matches again) is written in the same transaction.
    /// - Returns: the row as stored now, or `nil` when it changed meanwhile or was taken down.
    func update(_ changed: StoredAnnouncement, outbox: [OutboxItem]) async throws -> StoredAnnouncement?

    /// Detaches the photo (bumping the revision).
    /// - Returns: the photo key it had (`.some(nil)` when none), or `nil` when the announcement
    ///   does not exist (or was taken down).
    func detachPhoto(id: AnnouncementID, at date: Date) async throws -> String??

    /// Takes the announcement down: its row stays as a tombstone with every detail erased (contact,
    /// texts, photo key, password hash), its idempotency records keep their keys but lose their
    /// sealed answers, the addresses it trusted are forgotten, and the outbox's rows about it
    /// (its mail, with its address) are removed — in one transaction.
    /// - Returns: the photo key it had (`.some(nil)` when none), or `nil` when there was nothing
    ///   live to take down.
    func takeDown(id: AnnouncementID, at date: Date) async throws -> String??

    /// Newest first, `limit` at most, starting after `cursor`, only those `filter` lets through.
    func page(limit: Int, after cursor: PageCursor?, matching filter: AnnouncementFilter) async throws -> AnnouncementPage

    /// The announcements within `search`'s radius that its filter lets through (never one
    /// without a location), nearest first (by ``NearSearch``'s metric), then newest, `limit` at
    /// most, after `cursor`; narrowed by a spatial index first.
    func near(_ search: NearSearch, limit: Int, after cursor: NearCursor?) async throws -> NearPage

    /// Points the announcement at a new photo, after `storing` has written the photo's bytes.
    ///
    /// `storing` runs once the announcement is known to exist and while the store holds a lock
    /// on `photoKey` that ``removePhotoIfUnreferenced(_:remove:)`` also takes, so no replica can
    /// delete the object between its write and the row that points at it. When `storing`
    /// throws, nothing changes. `outbox` (looking for matches with the new photo) is written
    /// with the new key.
    /// - Returns: the photo key it had before (`nil` if none), or `found == false` (and
    ///   `storing` not run) when the announcement does not exist.
    func setPhoto(id: AnnouncementID, photoKey: String, at date: Date, outbox: [OutboxItem],
                  storing: @escaping @Sendable () async throws -> Void) async throws -> PhotoReplacement

    /// Runs `remove` when no announcement uses `photoKey`, under the lock ``setPhoto(id:photoKey:at:storing:)``
    /// takes. - Returns: whether `remove` ran.
    func removePhotoIfUnreferenced(_ photoKey: String, remove: @escaping @Sendable () async throws -> Void) async throws -> Bool

    /// Whether any announcement still uses this photo.
    func isPhotoReferenced(_ photoKey: String) async throws -> Bool

    /// Every photo key in use (for sweeping orphaned files after a crash).
    func referencedPhotoKeys() async throws -> Set<String>

    /// Reserves one password attempt for `client` on `id` when the policy leaves room, in the
    /// same transaction that counts the earlier ones, so concurrent guesses can never pass the
    /// limit. The reservation stays counted (as a failure) unless ``settleAuthAttempt(_:succeeded:)``
    /// is told it succeeded.
    func reserveAuthAttempt(id: AnnouncementID, client: String, policy: AuthThrottlePolicy,
                            at date: Date) async throws -> AuthAttemptReservation

    /// Ends a reserved attempt: a success removes it and trusts its client for this
    /// announcement; a failure leaves it counted.
    func settleAuthAttempt(_ slot: AuthAttemptSlot, succeeded: Bool) async throws

    /// Forgets a reserved attempt whose password was never checked.
    func releaseAuthAttempt(_ slot: AuthAttemptSlot) async throws

    /// Lets `client` past the per-announcement ceiling for `id` (the address that created it).
    func trustClient(_ client: String, for id: AnnouncementID) async throws

    /// Forgets idempotency records and password attempts older than their windows.
    func purge(idempotencyBefore: Date, failuresBefore: Date) async throws

    /// Replaces an announcement's stored password form, if it still is `old` (a check under an
    /// old key, or of a sealed bcrypt hash, stores the current form).
    func replacePasswordHash(id: AnnouncementID, from old: String, to new: String) async throws

    /// Ends every browser session of the announcement's owner (``OwnerSession``): its session
    /// generation goes one up, and its stored password form becomes `newPasswordHash` when given,
    /// in one statement; with `ifGeneration`, only while the generation is still that one (a
    /// sign-in link, which names the generation it was made under, works once).
    /// - Returns: the announcement as stored now, or `nil` when it is not live (or its generation
    ///   moved on).
    func endOwnerSessions(id: AnnouncementID, newPasswordHash: String?, ifGeneration: Int?) async throws -> StoredAnnouncement?

    /// Rewrites every stored password form `rewrite` has a new one for (bare bcrypt hashes, sealed
    /// at start); the number rewritten.
    func rewritePasswordHashes(_ rewrite: @escaping @Sendable (_ id: String, _ stored: String) -> String?) async throws -> Int

    /// Whether the store answers and can still write (for `/health`): throws when it cannot.
    func ping() async throws
}

extension AnnouncementStoring {
    /// ``insert(_:idempotency:trusting:expiringBefore:outbox:)`` causing no mail.
    public func insert(_ announcement: StoredAnnouncement, idempotency: IdempotencyRecord?, trusting creator: String?,
                       expiringBefore: Date) async throws -> IdempotencyRecord? {
        try await insert(announcement, idempotency: idempotency, trusting: creator, expiringBefore: expiringBefore, outbox: [])
    }

    /// ``update(_:outbox:)`` causing no mail.
    public func update(_ changed: StoredAnnouncement) async throws -> StoredAnnouncement? {
        try await update(changed, outbox: [])
    }

    /// ``setPhoto(id:photoKey:at:outbox:storing:)`` causing no mail.
    public func setPhoto(id: AnnouncementID, photoKey: String, at date: Date,
                         storing: @escaping @Sendable () async throws -> Void) async throws -> PhotoReplacement {
        try await setPhoto(id: id, photoKey: photoKey, at: date, outbox: [], storing: storing)
    }

    /// Newest first, `limit` at most, starting after `cursor`.
    public func page(limit: Int, after cursor: PageCursor?) async throws -> AnnouncementPage {
        try await page(limit: limit, after: cursor, matching: .all)
    }
}

/// What ``AnnouncementStoring/lookup(id:)`` finds.
public enum AnnouncementLookup: Sendable {
    case live(StoredAnnouncement)
    /// Taken down by its owner: 410 Gone.
    case gone
    case unknown
}

/// The outcome of ``AnnouncementStoring/setPhoto(id:photoKey:at:)``.
public struct PhotoReplacement: Sendable, Hashable {
    public var found: Bool
    public var previousKey: String?

    public init(found: Bool, previousKey: String?) {
        self.found = found
        self.previousKey = previousKey
    }
}
