import Foundation
import PetSpot

/// Stops online guessing of a six-digit password: after `maxFailures` wrong attempts for one
/// announcement within `window`, every further attempt — right or wrong — is refused with 429
/// until the oldest failure leaves the window. Failures are kept in the store, so a restart
/// does not reset the count.
struct AuthThrottle: Sendable {
    var maxFailures = 10
    var window: TimeInterval = 15 * 60
    let store: any AnnouncementStoring

    /// Seconds until `id` may try again, or `nil` when it may try now.
    func retryAfter(id: AnnouncementID, now: Date = Date()) async throws -> Int? {
        let failures = try await store.authFailures(id: id, since: now.addingTimeInterval(-window))
        guard failures.count >= maxFailures else { return nil }
        // Free again once enough of the failures have left the window.
        let freeAt = failures[failures.count - maxFailures].addingTimeInterval(window)
        return max(1, Int(freeAt.timeIntervalSince(now).rounded(.up)))
    }

    func recordFailure(id: AnnouncementID, now: Date = Date()) async throws {
        try await store.recordAuthFailure(id: id, at: now)
    }
}
