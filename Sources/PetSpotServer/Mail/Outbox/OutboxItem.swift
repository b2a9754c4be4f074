import Foundation
import PetSpot

/// One row of the outbox: a message to deliver, or work an event leaves for the mail worker
/// (looking for matches of a report, alerting the areas that follow where it was posted). It is
/// written in the same transaction as the event that causes it, so a crash or a dead relay
/// delays it and never loses it.
public struct OutboxItem: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        /// "Could this be Rex?" to the owner of a missing report.
        case possibleMatch = "possible-match"
        /// To the address a report was made with: its page, what the password is for.
        case reportConfirmation = "report-confirmation"
        /// To an address that asked to follow an area: the link that confirms it.
        case alertConfirmation = "alert-confirmation"
        /// To a report's address when its owner asked for a way in without the password: a
        /// one-time sign-in link, made only when it is sent (``SignInLink``): the row holds no link.
        case signInLink = "sign-in-link"
        /// A new report in a followed area.
        case areaAlert = "area-alert"
        /// A day's new reports in a followed area.
        case areaDigest = "area-digest"
        /// Work: compare a report created or changed with the open reports of the other kind.
        case matchScan = "match-scan"
        /// Work: tell the areas that follow where a new report was posted.
        case areaFanOut = "area-fan-out"

        /// Whether the row is a message (delivered to the relay) rather than work.
        public var isMessage: Bool { self != .matchScan && self != .areaFanOut }
    }

    /// At most `limit` rows of the item's kind for one announcement, related row or recipient
    /// queued since `since`: past any of its caps, the item is not written (and a job that made
    /// it is run again later, when ``deferWhenCapped``).
    public struct Cap: Sendable, Equatable {
        public enum Scope: Sendable, Equatable {
            case announcement(String)
            case related(String)
            case recipient(String)
        }
        public var scope: Scope
        public var limit: Int
        public var since: Date
        /// A capped item is wanted later (a match mail), not dropped (a confirmation).
        public var deferWhenCapped: Bool

        public init(_ scope: Scope, limit: Int, since: Date, deferWhenCapped: Bool = false) {
            self.scope = scope
            self.limit = limit
            self.since = since
            self.deferWhenCapped = deferWhenCapped
        }
    }

    public var kind: Kind
    /// The address a message goes to, as given (a cap counts it without case); `nil` for work.
    public var recipient: String?
    /// The message's `Message-ID` (`local@domain`), the same on every attempt.
    public var messageID: String?
    /// The whole message (RFC 5322 bytes); erased once it is sent or given up.
    public var content: [UInt8]?
    /// The announcement it is about (erased with it when it is taken down).
    public var announcementID: String?
    /// The other row it concerns: the found report of a match, or the subscription of an alert.
    public var relatedID: String?
    /// Not before.
    public var dueAt: Date
    /// Written at most once ever: an item whose key was written before is dropped (one mail
    /// per pair of reports, one alert per subscription and report).
    public var onceKey: String?
    public var caps: [Cap]

    public init(kind: Kind, recipient: String? = nil, messageID: String? = nil, content: [UInt8]? = nil,
                announcementID: String? = nil, relatedID: String? = nil, dueAt: Date, onceKey: String? = nil, caps: [Cap] = []) {
        self.kind = kind
        self.recipient = recipient
        self.messageID = messageID
        self.content = content
        self.announcementID = announcementID
        self.relatedID = relatedID
        self.dueAt = dueAt
        self.onceKey = onceKey
        self.caps = caps
    }

    /// Work for the mail worker about `announcement`, due now.
    static func job(_ kind: Kind, about announcement: AnnouncementID, at date: Date) -> OutboxItem {
        OutboxItem(kind: kind, announcementID: announcement.rawValue, dueAt: date)
    }
}

/// A row the worker claimed: the item, its row id, attempts so far and when it was queued.
public struct OutboxEntry: Sendable {
    public var id: Int64
    public var item: OutboxItem
    public var attempts: Int
    public var createdAt: Date
}

/// What the worker did with a claimed row, for the store to record.
public enum OutboxOutcome: Sendable {
    /// The relay took the message: recorded as sent, its content erased.
    case sent
    /// Not now: tried again at `at`; `reason` recorded.
    case retry(at: Date, reason: String)
    /// Given up (a 5xx, or 24 h of failures): recorded as failed, its content erased.
    case failed(String)
    /// No longer wanted (its report closed, its subscriber gone): recorded, its content erased.
    case cancelled(String)
    /// Work done: `adding` written in the same transaction that removes the row (each with its
    /// once-key and cap); when an item was capped with ``OutboxItem/Cap/deferWhenCapped``, or
    /// `again` is given, the row stays and runs again then.
    case done(adding: [OutboxItem], again: Date?)
}
