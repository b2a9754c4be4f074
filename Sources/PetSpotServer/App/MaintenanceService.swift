import Foundation
import Logging
import ServiceLifecycle

/// What a long-running replica tidies while it serves, first a minute after the start, then
/// every `interval`:
/// - idempotency records older than a day and password attempts past the throttle's windows
///   are forgotten (the start does it too, but a replica may run for months);
/// - the report forms' pending photos older than a day are forgotten, and their photos removed
///   from `photos` when nothing else uses them (``PendingUploadSweep``);
/// - the record of mail sent, failed or cancelled more than a week ago, area subscriptions
///   never confirmed within a week, and once-keys older than 180 days are forgotten;
/// - with a shared bucket, photo objects no announcement uses are removed once they are older
///   than ``DataDirectory/sweepGrace`` (a replica may have stored one and not yet recorded it);
///   each removal holds the key's lock (``AnnouncementStoring/removePhotoIfUnreferenced(_:remove:)``).
///   Running in the background, a replica starting never waits on a listing of the whole bucket.
struct MaintenanceService: Service {
    let store: any AnnouncementStoring
    let bucket: S3PhotoStore?
    let throttleWindow: TimeInterval
    var firstDelay: Duration = .seconds(60)
    var interval: Duration = .seconds(3600)
    /// How old an unreferenced object must be to go.
    var grace: TimeInterval = DataDirectory.sweepGrace
    let logger: Logger
    /// Where pending photos are removed from (the disk or the bucket).
    var photos: (any PhotoStoring)?

    func run() async throws {
        var delay = firstDelay
        while true {
            do {
                let wait = delay
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: wait) }
            } catch {
                return
            }
            delay = interval
            await runOnce()
        }
    }

    func runOnce(now: Date = Date()) async {
        do {
            try await store.purge(idempotencyBefore: now.addingTimeInterval(-24 * 3600), failuresBefore: now.addingTimeInterval(-throttleWindow))
        } catch {
            logger.warning("forgetting old idempotency records and password attempts failed, trying again later: \(error)")
        }
        if let photos, let pending = store as? any PendingUploadStoring & AnnouncementStoring {
            do {
                let removed = try await PendingUploadSweep.run(store: pending, photos: photos, now: now)
                if removed > 0 { logger.notice("removed \(removed) photo(s) of report forms nobody sent within a day") }
            } catch {
                logger.warning("forgetting the report forms' unused photos failed, trying again later: \(error)")
            }
        }
        if let outbox = store as? any OutboxStoring {
            do {
                try await outbox.purgeOutbox(finishedBefore: now.addingTimeInterval(-7 * 86400), onceKeysBefore: now.addingTimeInterval(-180 * 86400),
                                             unconfirmedBefore: now.addingTimeInterval(-7 * 86400))
            } catch {
                logger.warning("forgetting old mail records failed, trying again later: \(error)")
            }
        }
        guard let bucket else { return }
        let store = self.store
        do {
            // A snapshot of the keys in use spares a transaction per referenced object; each
            // candidate is checked again under its lock before it goes.
            let referenced = try await store.referencedPhotoKeys()
            let removed = try await bucket.sweep(olderThan: now.addingTimeInterval(-grace)) { key in
                // A variant goes with its photo: under the photo's lock, once nothing uses it; a
                // variant of an earlier recipe goes at once (no URL leads to it any more).
                guard let owner = PhotoKey.owner(of: key) else {
                    try await bucket.remove(key)
                    return true
                }
                guard !referenced.contains(owner) else { return false }
                return try await store.removePhotoIfUnreferenced(owner) { try await bucket.remove(key) }
            }
            if removed > 0 { logger.notice("removed \(removed) unreferenced photo object(s) older than an hour from \(bucket.client.location)") }
        } catch {
            logger.warning("the photo sweep stopped early and will try again later: \(error)")
        }
    }
}
