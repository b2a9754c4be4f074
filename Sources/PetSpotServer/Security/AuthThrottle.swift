import Foundation
import Logging
import PetSpot

/// Stops online guessing of six-digit management passwords without letting strangers lock an
/// owner out (``AuthThrottlePolicy`` has the limits).
///
/// An attempt is counted *before* its password is checked, atomically in the store, so a burst
/// of concurrent guesses gets exactly the policy's number of checks and every other one a 429
/// that costs no bcrypt. Attempts live in the store, so a restart does not reset them.
struct AuthThrottle: Sendable {
    var policy = AuthThrottlePolicy()
    let store: any AnnouncementStoring

    /// Checks `password` for `announcement` on behalf of `client`.
    /// - Parameter verify: bcrypt's check, run only when an attempt could be reserved.
    /// - Returns: whether the password is right.
    /// - Throws: 429 (``APIFailure/tooManyAttempts(retryAfter:)``) when no attempt is left.
    func check(announcement id: AnnouncementID, client: String, now: Date = Date(), logger: Logger,
               verify: @Sendable () async throws -> Bool) async throws -> Bool {
        switch try await store.reserveAuthAttempt(id: id, client: client, policy: policy, at: now) {
        case .refused(_, let retryAt):
            throw APIFailure.tooManyAttempts(retryAfter: max(1, Int(retryAt.timeIntervalSince(now).rounded(.up))))
        case .granted(let slot, let remaining, let scope):
            let right: Bool
            do {
                right = try await verify()
            } catch {
                try? await store.settleAuthAttempt(slot, succeeded: false)
                throw error
            }
            try await store.settleAuthAttempt(slot, succeeded: right)
            if !right && remaining == 0 {
                let window = scope == .client ? policy.clientWindow : policy.announcementWindow
                logger.notice("password attempts locked for \(scope.rawValue) on an announcement",
                              metadata: ["announcement": .string(id.rawValue), "client": .string(client),
                                         "scope": .string(scope == .client ? "client" : "announcement"),
                                         "window_s": .stringConvertible(Int(window))])
            }
            return right
        }
    }
}
