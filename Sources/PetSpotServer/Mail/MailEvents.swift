import Foundation
import Logging
import PetSpot

/// The outbox rows each change to a report causes, written by the store in the change's own
/// transaction; none when the server sends no mail.
extension ServerServices {
    /// Confirmations one address gets in 24 hours at most: a report made in someone else's name
    /// cannot become a stream of mail to them.
    static let reportConfirmationsPerAddressPerDay = 3

    /// A new report: its confirmation to the address it was made with, a match scan and an area
    /// fan-out — those two after ``MailSettings/photoGrace`` when it has no photo yet (its
    /// upload queues a scan of its own at once).
    func outboxForNewReport(_ stored: StoredAnnouncement, logger: Logger) -> [OutboxItem] {
        guard let mail else { return [] }
        let now = stored.createdAt
        let work = stored.photoKey == nil ? now.addingTimeInterval(mail.settings.photoGrace.timeInterval) : now
        var items = [OutboxItem.job(.matchScan, about: stored.id, at: work), OutboxItem.job(.areaFanOut, about: stored.id, at: work)]
        let details = stored.details(photoURL: photoURL(for:))
        let cap = OutboxItem.Cap(.recipient(stored.request.email), limit: Self.reportConfirmationsPerAddressPerDay, since: now.addingTimeInterval(-24 * 3600))
        if let confirmation = mail.item(ReportConfirmationMail(details: details, base: mail.base), to: stored.request.email,
                                        about: stored.id.rawValue, now: now, caps: [cap], logger: logger) {
            items.insert(confirmation, at: 0)
        }
        return items
    }

    /// A report edited or given a photo, still open: a match scan (the once-keys keep a pair
    /// mailed before from being mailed again).
    func outboxForChangedReport(_ changed: StoredAnnouncement, at date: Date) -> [OutboxItem] {
        guard mail != nil, !changed.isClosed else { return [] }
        return [OutboxItem.job(.matchScan, about: changed.id, at: date)]
    }
}
