import Foundation
import Logging
import PetSpot

/// Stops online guessing of six-digit management passwords without letting strangers lock an
/// owner out (``AuthThrottlePolicy`` has the limits).
///
/// An attempt is counted *before* its password is checked, atomically in the store, so a burst
/// of concurrent guesses — on one replica or many — gets exactly the policy's number of checks
/// and every other one a 429 that costs no bcrypt. Attempts live in the store, so a restart
/// does not reset them. The reservation is taken before the upload is admitted (a 429 needs no
/// upload slot) and given back when the upload is refused as busy.
struct AuthThrottle: Sendable {
    var policy = AuthThrottlePolicy()
    let store: any AnnouncementStoring

    /// Reserves one password attempt for `client` on `announcement`.
    /// - Throws: 429 (``APIFailure/tooManyAttempts(retryAfter:)``) when no attempt is left.
    func reserve(announcement id: AnnouncementID, client: String, now: Date = Date()) async throws -> Reservation {
        switch try await store.reserveAuthAttempt(id: id, client: client, policy: policy, at: now) {
        case .refused(_, let retryAt):
            throw APIFailure.tooManyAttempts(retryAfter: max(1, Int(retryAt.timeIntervalSince(now).rounded(.up))))
        case .granted(let slot, let remaining, let scope):
            return Reservation(slot: slot, remaining: remaining, scope: scope)
        }
    }

    /// A reserved attempt, to ``check(_:logger:verify:)`` or to ``release(_:)``.
    struct Reservation: Sendable {
        let slot: AuthAttemptSlot
        let remaining: Int
        let scope: AuthAttemptReservation.Scope
    }

    /// Checks the password of a reserved attempt: a wrong one stays counted, a right one is
    /// forgotten and trusts its client. When `verify` throws (no password was checked), the
    /// attempt is released.
    /// - Returns: whether the password is right.
    func check(_ reservation: Reservation, logger: Logger, verify: @Sendable () async throws -> Bool) async throws -> Bool {
        let slot = reservation.slot
        let right: Bool
        do {
            right = try await verify()
        } catch {
            await release(reservation)
            throw error
        }
        try await store.settleAuthAttempt(slot, succeeded: right)
        if !right && reservation.remaining == 0 {
            let scope = reservation.scope
            let window = switch scope {
            case .client: policy.clientWindow
            case .announcement: policy.announcementWindow
            case .address: policy.addressWindow
            }
            logger.notice(scope == .address ? "password attempts locked for this address on every announcement"
                          : "password attempts locked for \(scope.rawValue) on an announcement",
                          metadata: ["announcement": .string(slot.id.rawValue), "client": .string(slot.client),
                                     "scope": .string("\(scope)"),
                                     "window_s": .stringConvertible(Int(window))])
        }
        return right
    }

    /// Gives back an attempt whose password was never checked (the upload was refused as busy).
    func release(_ reservation: Reservation) async {
        try? await store.releaseAuthAttempt(reservation.slot)
    }
}
