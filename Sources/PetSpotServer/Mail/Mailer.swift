import Foundation
import Logging
import Mail
import PetSpot

/// What the routes and the mail worker use to make mail: the sender, the signed links, the
/// public URL the links point to, and the worker's wake-up. `ServerServices.mail` is `nil`
/// when the server sends no mail.
///
/// A message becomes an ``OutboxItem`` with ``item(_:to:about:related:now:onceKey:caps:logger:)``; the
/// item is written in the transaction of the event that causes it (a store call that takes
/// `outbox:`, or ``SQLiteOutbox/insert(_:now:in:)`` / ``PostgresOutbox/insert(_:now:on:logger:)``
/// inside a store's own transaction), then ``queued()`` wakes the worker.
struct Mailer: Sendable {
    let settings: MailSettings
    let links: MailLinks
    let publicURL: PublicURL
    let signal: OutboxSignal

    init(settings: MailSettings, keyring: PasswordKeyring, publicURL: PublicURL, signal: OutboxSignal = OutboxSignal()) {
        self.settings = settings
        links = MailLinks(keyring: keyring)
        self.publicURL = publicURL
        self.signal = signal
    }

    var sender: MailAddress { settings.sender }

    /// The public URL, without a trailing slash: every link in mail is absolute.
    var base: String { publicURL.current }

    /// `template` to `address`, rendered now (so a resend is byte for byte the same message),
    /// with a new Message-ID at the sender's domain; `nil` when the address cannot be written to
    /// (not ASCII, or unusable in an envelope), which is logged.
    func item(_ template: some MailTemplate, to address: String, about announcement: String? = nil, related: String? = nil,
              now: Date, onceKey: String? = nil, caps: [OutboxItem.Cap] = [], logger: Logger? = nil) -> OutboxItem? {
        let recipient: MailAddress
        do {
            recipient = try MailAddress(address)
        } catch {
            logger?.notice("no \(type(of: template).kind.rawValue) mail: \(error)")
            return nil
        }
        let message = message(template, to: recipient, messageID: MailMessage.newMessageID(domain: sender.domain), date: now)
        return OutboxItem(kind: type(of: template).kind, recipient: recipient.address, messageID: message.messageID,
                          content: message.rendered(), announcementID: announcement, relatedID: related, dueAt: now,
                          onceKey: onceKey, caps: caps)
    }

    /// `template` in the layout every message shares, from the sender to `recipient`.
    func message(_ template: some MailTemplate, to recipient: MailAddress, messageID: String, date: Date) -> MailMessage {
        let layout = MailLayout(template: template)
        return MailMessage(from: sender, to: recipient, subject: template.subject, text: layout.text, html: layout.html.description,
                           messageID: messageID, date: date, unsubscribeURL: template.unsubscribeURL)
    }

    /// The row of a sign-in link for `announcement` to `address`, asked for `now`: its Message-ID
    /// and address, and no content — the message is made when it is sent (``OutboxMessages``),
    /// so the database never holds the link. `nil` when the address cannot be written to.
    func signInLinkItem(to address: String, about announcement: AnnouncementID, now: Date, caps: [OutboxItem.Cap]) -> OutboxItem? {
        guard let recipient = try? MailAddress(address) else { return nil }
        return OutboxItem(kind: .signInLink, recipient: recipient.address, messageID: MailMessage.newMessageID(domain: sender.domain),
                          announcementID: announcement.rawValue, dueAt: now, caps: caps)
    }

    /// Something was written to the outbox: this replica's worker looks at once.
    func queued() { signal.wake() }

    /// `/mail/unsubscribe/<token>` for a link.
    func unsubscribeURL(_ purpose: MailLinks.Purpose, id: String) -> String {
        "\(base)\(MailLinkPaths.unsubscribe)\(links.token(purpose, id: id))"
    }
}
