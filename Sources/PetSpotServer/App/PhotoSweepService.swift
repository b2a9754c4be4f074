import Foundation
import Logging
import ServiceLifecycle

/// Removes photo objects no announcement uses from a shared bucket: first a minute after the
/// start, then every `interval`, while the replica serves — so a replica starting never waits
/// on a listing of the whole bucket, and orphans left by any replica's crash go within a few
/// hours. Objects younger than ``DataDirectory/sweepGrace`` are left (a replica may have
/// stored one and not yet recorded it); each removal holds the key's lock (see
/// ``AnnouncementStoring/removePhotoIfUnreferenced(_:remove:)``).
struct PhotoSweepService: Service {
    let bucket: S3PhotoStore
    let store: any AnnouncementStoring
    var firstDelay: Duration = .seconds(60)
    var interval: Duration = .seconds(3600)
    let logger: Logger

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
            await sweepOnce()
        }
    }

    func sweepOnce() async {
        let bucket = self.bucket, store = self.store
        do {
            let removed = try await bucket.sweep(olderThan: Date().addingTimeInterval(-DataDirectory.sweepGrace)) { key in
                try await store.removePhotoIfUnreferenced(key) { try await bucket.remove(key) }
            }
            if removed > 0 { logger.notice("removed \(removed) unreferenced photo object(s) older than an hour from \(bucket.client.location)") }
        } catch {
            logger.warning("the photo sweep stopped early and will try again later: \(error)")
        }
    }
}
