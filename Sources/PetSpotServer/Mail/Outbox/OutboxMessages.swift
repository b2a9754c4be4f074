import Foundation
import Mail
import PetSpot

/// What the worker sends for a claimed message row, decided just before sending: the bytes
/// written when it was queued, or — for a sign-in link, whose row holds no link — the message
/// made now; or nothing, when it is no longer wanted (a match mail whose reports closed or whose
/// owner turned them off, an alert about a report closed since, a sign-in link past its hour or
/// for a report taken down).
struct OutboxMessages: Sendable {
    let services: ServerServices
    let mailer: Mailer
    let outbox: any OutboxStoring

    enum Prepared: Sendable, Equatable {
        case send([UInt8])
        case cancel(String)
    }

    func prepare(_ entry: OutboxEntry) async throws -> Prepared {
        let item = entry.item
        switch item.kind {
        case .possibleMatch:
            guard let missing = item.announcementID, let found = item.relatedID else { break }
            if try await outbox.isMatchMailOff(announcementID: missing) { return .cancel("the owner turned possible-match mail off") }
            for id in [missing, found] {
                guard case .live(let announcement)? = try await lookup(id), !announcement.isClosed else {
                    return .cancel("a report of the pair was closed or taken down")
                }
            }
        case .areaAlert:
            guard case .live(let announcement)? = try await lookup(item.announcementID), !announcement.isClosed else {
                return .cancel("the report was closed or taken down")
            }
        case .signInLink:
            return try await signInLink(entry)
        default:
            break
        }
        guard let content = item.content else { return .cancel("nothing to send") }
        return .send(content)
    }

    /// The link made from the row (asked for at its `createdAt`) and the report as it is now,
    /// dated then, with the row's Message-ID (which the boundary is made from): a crash between
    /// sending and recording sends the same bytes again, unless the owner signed
    /// in or out between (then the new copy carries the link that works).
    private func signInLink(_ entry: OutboxEntry) async throws -> Prepared {
        guard case .live(let announcement)? = try await lookup(entry.item.announcementID) else {
            return .cancel("the report was taken down")
        }
        let link = SignInLink(announcement, askedAt: entry.createdAt)
        guard link.state(for: announcement, now: services.now()) != .expired else {
            return .cancel("the link's hour passed before it could be sent")
        }
        guard let address = entry.item.recipient, let recipient = try? MailAddress(address), let messageID = entry.item.messageID else {
            return .cancel("nothing to send: no usable address")
        }
        let details = announcement.details(photoURL: services.photoURL(for:), showContact: true)
        let template = SignInLinkMail(details: details, url: mailer.base + SignInLink.pathPrefix + link.token(keyring: services.keyring),
                                      base: mailer.base)
        return .send(mailer.message(template, to: recipient, messageID: messageID, date: entry.createdAt).rendered())
    }

    private func lookup(_ idText: String?) async throws -> AnnouncementLookup? {
        guard let id = idText.flatMap(AnnouncementID.init(rawValue:)) else { return nil }
        return try await services.store.lookup(id: id)
    }
}
