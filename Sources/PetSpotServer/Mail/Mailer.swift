import Foundation
import Logging
import Mail

/// What the routes and the mail worker use to make mail: the sender, the signed links, the
/// public URL the links point to, and the worker's wake-up. `ServerServices.mail` is `nil`
/// when the server sends no mail.
///
/// A message becomes an ``OutboxItem`` with ``item(_:to:about:related:now:onceKey:cap:logger:)``; the
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
              now: Date, onceKey: String? = nil, cap: OutboxItem.Cap? = nil, logger: Logger? = nil) -> OutboxItem? {
        let recipient: MailAddress
        do {
            recipient = try MailAddress(address)
        } catch {
            logger?.notice("no \(type(of: template).kind.rawValue) mail: \(error)")
            return nil
        }
        let layout = MailLayout(template: template)
        let message = MailMessage(from: sender, to: recipient, subject: template.subject, text: layout.text, html: layout.html.description,
                                  messageID: MailMessage.newMessageID(domain: sender.domain), date: now,
                                  unsubscribeURL: template.unsubscribeURL)
        return OutboxItem(kind: type(of: template).kind, recipient: recipient.address, messageID: message.messageID,
                          content: message.rendered(), announcementID: announcement, relatedID: related, dueAt: now,
                          onceKey: onceKey, cap: cap)
    }

    /// Something was written to the outbox: this replica's worker looks at once.
    func queued() { signal.wake() }

    /// `/mail/unsubscribe/<token>` for a link.
    func unsubscribeURL(_ purpose: MailLinks.Purpose, id: String) -> String {
        "\(base)\(MailLinkPaths.unsubscribe)\(links.token(purpose, id: id))"
    }
}
