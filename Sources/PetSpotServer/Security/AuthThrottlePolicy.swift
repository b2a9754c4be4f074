import Foundation
import PetSpot

/// How many wrong management passwords the server takes before it answers 429 without
/// checking, in two scopes:
///
/// - per (announcement, client address): `perClient` attempts within `clientWindow` — one
///   address guessing;
/// - per announcement: `perAnnouncement` attempts within `announcementWindow`, all addresses
///   together — many addresses guessing. Addresses the announcement trusts (the one that created
///   it, and any that gave the right password) are not held by this ceiling, so strangers
///   cannot lock the owner out of their own announcement.
///
/// A right password does not use up an attempt.
public struct AuthThrottlePolicy: Sendable, Hashable {
    public var perClient: Int
    public var clientWindow: TimeInterval
    public var perAnnouncement: Int
    public var announcementWindow: TimeInterval
    /// Failed checks one address may make over every announcement together: guesses spread over
    /// many announcements get this many in all, not the per-announcement count on each.
    public var perAddress: Int
    public var addressWindow: TimeInterval

    public init(perClient: Int = 10, clientWindow: TimeInterval = 15 * 60,
                perAnnouncement: Int = 100, announcementWindow: TimeInterval = 24 * 3600,
                perAddress: Int = 100, addressWindow: TimeInterval = 24 * 3600) {
        self.perClient = perClient
        self.clientWindow = clientWindow
        self.perAnnouncement = perAnnouncement
        self.announcementWindow = announcementWindow
        self.perAddress = perAddress
        self.addressWindow = addressWindow
    }

    /// How far back attempts matter.
    var longestWindow: TimeInterval { max(clientWindow, announcementWindow, addressWindow) }
}

/// A reserved password attempt, to settle once the password was checked.
public struct AuthAttemptSlot: Sendable, Hashable {
    public var id: AnnouncementID
    public var client: String
    /// The storage's handle on the reserved row.
    public var rowID: Int64

    public init(id: AnnouncementID, client: String, rowID: Int64) {
        self.id = id
        self.client = client
        self.rowID = rowID
    }
}

/// The outcome of ``AnnouncementStoring/reserveAuthAttempt(id:client:policy:at:)``.
public enum AuthAttemptReservation: Sendable, Hashable {
    /// Which limit refused an attempt.
    public enum Scope: String, Sendable, Hashable {
        case client = "this address"
        case announcement = "all addresses"
        /// Every announcement together, from one address.
        case address = "this address on every announcement"
    }

    /// Check the password; `remaining` more attempts fit after this one, `limitedBy` the
    /// scope with the least room.
    case granted(AuthAttemptSlot, remaining: Int, limitedBy: Scope)
    /// No room: try again at `retryAt`.
    case refused(Scope, retryAt: Date)

    /// The reservation from attempt times already in the windows (oldest first), shared by the
    /// storage engines so they decide alike.
    /// - Parameters:
    ///   - clientAttempts: this client's attempts within the client window.
    ///   - announcementAttempts: every attempt within the announcement window, or `nil` when the
    ///     client is trusted.
    ///   - addressAttempts: this client's attempts on every announcement within the address
    ///     window, or `nil` when the client is trusted for this announcement.
    static func decide(clientAttempts: [Date], announcementAttempts: [Date]?, addressAttempts: [Date]? = nil,
                       policy: AuthThrottlePolicy) -> (scope: Scope, retryAt: Date)? {
        if clientAttempts.count >= policy.perClient {
            return (.client, clientAttempts[clientAttempts.count - policy.perClient].addingTimeInterval(policy.clientWindow))
        }
        if let addressAttempts, addressAttempts.count >= policy.perAddress {
            let oldest = addressAttempts[addressAttempts.count - policy.perAddress]
            return (.address, oldest.addingTimeInterval(policy.addressWindow))
        }
        if let announcementAttempts, announcementAttempts.count >= policy.perAnnouncement {
            let oldest = announcementAttempts[announcementAttempts.count - policy.perAnnouncement]
            return (.announcement, oldest.addingTimeInterval(policy.announcementWindow))
        }
        return nil
    }

    /// Attempts left after this one, and the scope with the least room.
    static func room(clientAttempts: Int, announcementAttempts: Int?, addressAttempts: Int? = nil,
                     policy: AuthThrottlePolicy) -> (Int, Scope) {
        var least = (policy.perClient - clientAttempts - 1, Scope.client)
        // On a tie the wider lock is the one to report.
        if let addressAttempts, policy.perAddress - addressAttempts - 1 <= least.0 {
            least = (policy.perAddress - addressAttempts - 1, .address)
        }
        if let announcementAttempts, policy.perAnnouncement - announcementAttempts - 1 <= least.0 {
            least = (policy.perAnnouncement - announcementAttempts - 1, .announcement)
        }
        return least
    }
}
