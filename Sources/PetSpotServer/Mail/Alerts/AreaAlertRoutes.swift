import Foundation
import HTTPTypes
import Hummingbird
import PetSpot

/// Following an area by email: `GET /alerts/new?near_place=…&radius_km=…&species=…&status=…`
/// (the form, linked from the list's search near a place), `POST /alerts` (its CSRF token checked
/// against the browser's cookie, the bot check, the address; then the subscription stored
/// unconfirmed with its confirmation in one transaction, and 303 to `GET /alerts/check-email`,
/// which says the same whether or not a message went: at most one a day per address). Without
/// mail, the form's pages say that alerts need it (404).
struct AreaAlertRoutes<Context: ClientRequestContext & ContinueRequestContext> {
    let services: ServerServices

    func register(on router: Router<Context>) {
        router.get(RouterPath(AreaAlertForm.newPath)) { request, context in
            try await page(request, context: context) { try await show(request) }
        }
        router.post(RouterPath(AreaAlertForm.path)) { request, context in
            try await page(request, context: context) { try await submit(request, context: context) }
        }
        router.get(RouterPath(AreaAlertForm.sentPath)) { _, _ in
            PageLayout.response(PageLayout.document(title: "Check your email · PetSpot", description: "Confirm your alerts", body: """
                <h1>Check your email</h1>
                <p>We have sent a link to confirm your alerts, unless this address already had one today. Nothing else is sent \
                until the link is followed; it works for a week.</p>
                <p><a href="/">See all announcements</a></p>

                """), cacheControl: "no-store")
        }
    }

    /// Confirmations one address gets in 24 hours at most.
    static var alertConfirmationsPerAddressPerDay: Int { 1 }

    private func show(_ request: Request) async throws -> Response {
        guard services.mail != nil else { return Self.unavailable }
        let query = request.uri.queryParameters
        let area = try await AlertArea.read({ name in query[Substring(name)].map(String.init) }, gazetteer: services.gazetteer)
        let issued = services.forms.issue(for: request, now: services.now())
        let form = AreaAlertForm(fields: FormFields([(AreaAlertForm.cadence.name, AlertSubscription.Cadence.each.rawValue)]))
        return Self.formResponse(form.page(area: area, token: issued.token), cookie: issued.cookie)
    }

    private func submit(_ request: Request, context: Context) async throws -> Response {
        let forms = services.forms
        let reader = FormBodyReader(limits: FormBodyReader.Limits(fieldBytes: 1024, textBytes: 4096, parts: 12, partHeaderBytes: 1024),
                                    uploadDirectory: services.uploadDirectory)
        let (body, _, issuedAt) = try await reader.readProtected(request, context: context, forms: forms)
        let token = body.fields.text(FormProtection.fieldName)
        guard let mail = services.mail, let outbox = services.store as? any OutboxStoring else { return Self.unavailable }
        let now = services.now()
        let area = try await AlertArea.read({ body.fields[$0] }, gazetteer: services.gazetteer)
        var form = AreaAlertForm(fields: body.fields)
        let notices = try BotCheck.notices(body.fields, issuedAt: issuedAt, now: now)
        guard let (email, cadence) = form.read(), notices.isEmpty else {
            return Self.formResponse(form.page(area: area, token: token, notices: notices), status: .unprocessableContent, cookie: nil)
        }
        if let wait = services.rateLimiter.take(.create, client: context.client, now: now) {
            throw APIFailure.rateLimited("alert subscriptions", retryAfter: wait)
        }
        let subscription = area.subscription(email: email, cadence: cadence, now: now)
        let confirmURL = "\(mail.base)\(MailLinkPaths.confirm)\(mail.links.token(.confirmSubscription, id: subscription.id))"
        let cap = OutboxItem.Cap(.recipient(email), limit: Self.alertConfirmationsPerAddressPerDay, since: now.addingTimeInterval(-86400))
        if let confirmation = mail.item(AlertConfirmationMail(subscription: subscription, confirmURL: confirmURL), to: email,
                                        related: subscription.id, now: now, caps: [cap], logger: context.logger) {
            if try await outbox.addSubscription(subscription, confirmation: confirmation, now: now) { mail.queued() }
        }
        return Response(status: .seeOther, headers: [.location: AreaAlertForm.sentPath, .cacheControl: "no-store"])
    }

    /// `body`'s page, or the failure as a page, never cached.
    private func page(_ request: Request, context: Context, _ body: () async throws -> Response) async throws -> Response {
        do {
            return try await body()
        } catch {
            let failure = APIFailure.thrown(error, request: request, context: context)
            if [403, 413, 415].contains(failure.status.code) || failure.error.code == .formLooksAutomated { return FormRefusal.page(failure) }
            var response = PageLayout.failure(failure)
            response.headers[.cacheControl] = "no-store"
            return response
        }
    }

    static func formResponse(_ html: HTML, status: HTTPResponse.Status = .ok, cookie: Cookie?) -> Response {
        var response = PageLayout.response(html, status: status, cacheControl: "no-store")
        if let cookie { response.setCookie(cookie) }
        return response
    }

    static var unavailable: Response {
        PageLayout.response(PageLayout.document(title: "Email alerts are not available · PetSpot", description: "This site sends no email.", body: """
            <h1>Email alerts are not available here</h1>
            <p>This site is not set up to send email, so it cannot send alerts. Its list can be followed in a feed reader instead.</p>
            <p><a href="/">See all announcements</a></p>

            """), status: .notFound, cacheControl: "no-store")
    }
}
