import Foundation
import Hummingbird
import PetSpot

/// "Forgot the password?" below a report's manage pages: `GET /pets/{id}/manage/forgot` asks for
/// the report's email address; `POST` (CSRF token first) queues a one-time sign-in link
/// (``SignInLink``) to it when the address is the report's, compared without case, and answers
/// 303 to "Check your email" (`?done=sent`) whatever was typed: the page never says whether the
/// address matched, so it tells nobody a report's address.
///
/// Links are capped where they are queued, in the store, so replicas together send no more:
/// ``perAnnouncementPerHour`` for a report (an owner asking again and again, or someone who knows
/// the address making the owner's inbox a target) and ``perAddressPerDay`` to one address (an
/// owner of many reports). Past a cap nothing is queued and the page is the same, and it names
/// the hourly limit so an owner knows why nothing more came. Both answers go through the same
/// store transaction, queued or not, so their times differ by one insert.
///
/// Without mail the page says that links need email, and a post changes nothing.
struct ManageForgot {
    static let perAnnouncementPerHour = 3
    static let perAddressPerDay = 10
    static let sentNotice = "sent"

    let services: ServerServices
    var access: ManageAccess { ManageAccess(services: services) }

    /// The outbox row of a link to `announcement`'s address asked for `now`, with its caps.
    static func item(for announcement: StoredAnnouncement, mail: Mailer, now: Date) -> OutboxItem? {
        let address = announcement.request.email
        return mail.signInLinkItem(to: address, about: announcement.id, now: now, caps: [
            OutboxItem.Cap(.announcement(announcement.id.rawValue), limit: perAnnouncementPerHour, since: now.addingTimeInterval(-3600)),
            OutboxItem.Cap(.recipient(address), limit: perAddressPerDay, since: now.addingTimeInterval(-86400)),
        ])
    }

    func page(_ request: Request, announcement: StoredAnnouncement) async -> Response {
        let title = access.title(await access.details(announcement))
        if request.uri.queryParameters[Substring(ManageNotice.parameter)] == Substring(Self.sentNotice) {
            return ManageAccess.response(SignInLinkPages.sent(id: announcement.id, title: title, perHour: Self.perAnnouncementPerHour),
                                         cookies: [])
        }
        let issued = services.forms.issue(for: request, now: services.now())
        return ManageAccess.response(SignInLinkPages.forgot(id: announcement.id, title: title, token: issued.token, mail: services.mail != nil),
                                     cookies: [issued.cookie])
    }

    func send(_ request: Request, announcement: StoredAnnouncement, context: some ClientRequestContext & ContinueRequestContext) async throws -> Response {
        let (fields, _) = try await access.smallForm(request, context: context)
        guard let mail = services.mail, let outbox = services.store as? any OutboxStoring else {
            return await page(request, announcement: announcement)
        }
        let address = EmailAddress(fields.text(SignInLinkPages.email.name))
        if let problem = address.value.isEmpty ? "Enter the email address given in the report" : FormRules.email(address.value)?.message {
            let issued = services.forms.issue(for: request, now: services.now())
            let html = SignInLinkPages.forgot(id: announcement.id, title: access.title(await access.details(announcement)), token: issued.token,
                                              mail: true, value: address.value, problem: problem)
            return ManageAccess.response(html, status: .unprocessableContent, cookies: [issued.cookie])
        }
        let now = services.now()
        let items = address == EmailAddress(announcement.request.email) ? [Self.item(for: announcement, mail: mail, now: now)].compactMap(\.self) : []
        if try await outbox.queueMail(items, now: now) > 0 { mail.queued() }
        // The same line either way: the log says a link was asked for, never whether it went.
        context.logger.info("a sign-in link was asked for", metadata: ["announcement": .string(announcement.id.rawValue)])
        return ManageAccess.redirect("\(OwnerSession.path(announcement.id))/forgot?\(ManageNotice.parameter)=\(Self.sentNotice)", cookies: [])
    }
}
