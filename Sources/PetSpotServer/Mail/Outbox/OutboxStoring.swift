import Foundation

/// Where the outbox, the once-keys, match-mail opt-outs and area subscriptions live, beside the
/// announcements (both stores keep them), so a message is written in the same transaction as
/// the event that causes it.
///
/// Claiming differs by store: PostgreSQL locks the row (`FOR UPDATE SKIP LOCKED`) in a
/// transaction held while it is handled, so replicas never take the same row and a replica that
/// dies releases it at once; SQLite (one process per data directory) leases it for a while.
/// Either way a row is handled by one worker at a time, and one whose worker died before
/// recording the outcome is handled again (the same `Message-ID`).
public protocol OutboxStoring: Sendable {
    /// Claims the row due soonest (due at or before `now`), runs `handle` on it while it is
    /// claimed, and records the outcome. - Returns: `false` when nothing was due.
    func processNextOutboxItem(now: Date, handle: @escaping @Sendable (OutboxEntry) async -> OutboxOutcome) async throws -> Bool

    /// When the next queued row is due (`nil`: none queued).
    func nextOutboxDue() async throws -> Date?

    /// Forgets every claim (SQLite, at start: this process is the only one, an earlier one's
    /// claims died with it). PostgreSQL's claims are row locks that end with their connection.
    func releaseOutboxClaims() async throws

    /// Removes the record of messages sent, failed or cancelled before `finishedBefore`, once-keys
    /// older than `onceKeysBefore`, and subscriptions never confirmed since `unconfirmedBefore`.
    func purgeOutbox(finishedBefore: Date, onceKeysBefore: Date, unconfirmedBefore: Date) async throws

    /// Writes messages not caused by a change to a report (a sign-in link asked for), each
    /// within its caps, in one transaction. - Returns: how many were written.
    func queueMail(_ items: [OutboxItem], now: Date) async throws -> Int

    // MARK: match mails

    /// Stops possible-match mail for an announcement and drops what is queued of it.
    func turnOffMatchMail(announcementID: String, at date: Date) async throws
    func isMatchMailOff(announcementID: String) async throws -> Bool

    // MARK: area subscriptions

    /// Stores a new, unconfirmed subscription with its confirmation message (capped per address);
    /// without the confirmation (the address had one today), neither.
    /// - Returns: whether they were written.
    func addSubscription(_ subscription: AlertSubscription, confirmation: OutboxItem, now: Date) async throws -> Bool
    func subscription(id: String) async throws -> AlertSubscription?
    /// Confirms it (once; a second confirmation changes nothing). - Returns: it, or `nil` when gone.
    func confirmSubscription(id: String, at date: Date) async throws -> AlertSubscription?
    /// Erases it, what is queued for it and its once-keys. - Returns: whether there was one.
    func removeSubscription(id: String) async throws -> Bool
    /// Confirmed subscriptions whose centre is within `radiusKm` (a box) of a point.
    func confirmedSubscriptions(nearLatitude latitude: Double, longitude: Double, radiusKm: Double) async throws -> [AlertSubscription]
    /// Confirmed daily subscriptions whose digest is due (`digestAfter` before `before`), at most `limit`.
    func dueDigests(before: Date, limit: Int) async throws -> [AlertSubscription]
    /// Moves a digest on from `from` to `to` and writes its message, if no one did it meanwhile.
    /// - Returns: whether it was this call that moved it.
    func recordDigest(subscriptionID: String, from: Date, to: Date, message: OutboxItem?, now: Date) async throws -> Bool
}
