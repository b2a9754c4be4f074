import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PetSpot

/// The report pages' paths.
enum ReportPaths {
    static let photo = "/report/photo"
    /// Where the confirmations are, and the receipt cookie's path.
    static let sentPrefix = "/report/sent"
    /// The part of a photo post that carries the original's header (``ReportPhotoRoute``).
    static let headerPart = "photo_header"
    /// The most of the original's first bytes the script sends as ``headerPart``.
    static let headerBytes = 256 * 1024
}

/// The report pages: `GET /report` (lost or found?), `GET`/`POST /report/missing` and
/// `/report/found` (the forms; a post creates the announcement and its photo together, then 303
/// to the confirmation), `POST /report/photo` (the page's script sends the photo ahead of the
/// form; JSON), and `GET /report/sent/{id}` (the confirmation, with the management password once).
struct ReportRoutes<Context: ClientRequestContext & ContinueRequestContext> {
    let services: ServerServices

    func register(on router: Router<Context>) {
        router.get("/report") { _, _ in PageLayout.response(ReportChoicePage.html) }
        router.head("/report") { _, _ in
            let page = PageLayout.response(ReportChoicePage.html)
            return Response(status: page.status, headers: page.headers)
        }
        router.get(RouterPath(MissingReportForm.path)) { request, _ in show(MissingReportForm.self, request) }
        router.get(RouterPath(FoundReportForm.path)) { request, _ in show(FoundReportForm.self, request) }
        router.post(RouterPath(MissingReportForm.path)) { request, context in
            try await page(request, context: context) { try await submission.submit(MissingReportForm.self, request, context: context) }
        }
        router.post(RouterPath(FoundReportForm.path)) { request, context in
            try await page(request, context: context) { try await submission.submit(FoundReportForm.self, request, context: context) }
        }
        router.post(RouterPath(ReportPaths.photo)) { request, context in
            try await ReportPhotoRoute(services: services).receive(request, context: context)
        }
        router.get(RouterPath(ReportPaths.sentPrefix + "/:id")) { request, context in
            try await page(request, context: context) { try await confirmation(request, idText: context.parameters.get("id") ?? "") }
        }
    }

    private var submission: ReportSubmission<Context> { ReportSubmission(services: services) }

    /// A new form: the date today, a fresh idempotency key, the token for this browser.
    private func show<Form: ReportForm>(_ type: Form.Type, _ request: Request) -> Response {
        let now = services.now()
        let issued = services.forms.issue(for: request, now: now)
        let form = Form.blank(dates: ReportDates(now: now), maxPhotoBytes: services.maxPhotoBytes)
        return ReportFormPage.response(ReportFormPage.html(form, token: issued.token, idempotencyKey: UUID().uuidString.lowercased()),
                                       cookie: issued.cookie)
    }

    /// `body`'s page, or the failure as a page (never cached: it may answer a post).
    private func page(_ request: Request, context: Context, _ body: () async throws -> Response) async throws -> Response {
        do {
            return try await body()
        } catch {
            return FormRefusal.response(for: APIFailure.thrown(error, request: request, context: context))
        }
    }

    /// The confirmation: the password when the receipt for this id comes with the request (and
    /// then the receipt is deleted), else the page without it.
    private func confirmation(_ request: Request, idText: String) async throws -> Response {
        let stored = try await OwnerCheck(services: services).live(idText)
        let details = await services.details([stored]) { "\(ServerServices.photoPathPrefix)/\($0)" }[0]
        let shown = PetDetailsPresentation(details, timeZone: TimeZone(identifier: "UTC")!)
        let forms = services.forms
        let receipt = ReportReceipt.open(request, browser: forms.browser(of: request), keyring: services.keyring, now: services.now())
            .flatMap { $0.id == stored.id.rawValue ? $0 : nil }
        let html = ReportConfirmationPage.html(id: stored.id, title: "\(shown.status): \(PetPage.title(details))", receipt: receipt)
        var response = PageLayout.response(html, cacheControl: "no-store")
        if request.cookies[ReportReceipt.cookieName] != nil { response.setCookie(ReportReceipt.deletion(secure: forms.secureCookies)) }
        return response
    }
}
