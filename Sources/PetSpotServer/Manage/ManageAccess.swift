import Foundation
import HTTPTypes
import Hummingbird
import PetSpot
import PhotoPipeline

/// What every manage page and action shares: the announcement the path names, whether the
/// request is its owner's session, the small forms' bodies with their CSRF token checked, and
/// the answers (never stored by a cache, the forms' policy, cookies `Secure` over HTTPS).
struct ManageAccess {
    let services: ServerServices

    var session: OwnerSession { OwnerSession(keyring: services.keyring) }

    /// The announcement `idText` names: live, taken down, or none.
    func lookup(_ idText: String) async throws -> AnnouncementLookup {
        guard let id = AnnouncementID(rawValue: idText) else { return .unknown }
        return try await services.store.lookup(id: id)
    }

    /// The live announcement `idText` names, or the 404 / 410 failure.
    func live(_ idText: String) async throws -> StoredAnnouncement {
        switch try await lookup(idText) {
        case .live(let announcement): return announcement
        case .gone: throw APIFailure.gone
        case .unknown: throw Self.notFound
        }
    }

    static let notFound = APIFailure(status: .notFound, error: .init(code: .notFound, message:
        "No report has this address. It may have been mistyped, or the link is incomplete."))

    /// Whether cookies set in answer to `request` are `Secure`: the site's public URL is HTTPS,
    /// or a trusted proxy says the request came to it over HTTPS.
    func secure(_ request: Request, context: some ClientRequestContext) -> Bool {
        services.forms.secureCookies || services.clientAddress.cameOverHTTPS(request, peer: context.remoteAddress)
    }

    /// The small (urlencoded) body of a manage form, once its CSRF token is this browser's.
    /// - Throws: 403 (``FormRefusal/forbidden(_:)``) for a missing or wrong token, before any
    ///   of the form is used.
    func smallForm(_ request: Request, context: some ContinueRequestContext) async throws -> (FormFields, FormProtection.Browser) {
        let forms = services.forms
        let limits = FormBodyReader.Limits(fieldBytes: 1024, textBytes: 4 * 1024, parts: 12, partHeaderBytes: 1024)
        let reader = FormBodyReader(limits: limits, uploadDirectory: services.uploadDirectory)
        let (body, browser, _) = try await reader.readProtected(request, context: context, forms: forms)
        return (body.fields, browser)
    }

    /// A manage page: never stored, the forms' policy, with `cookies`.
    static func response(_ html: HTML, status: HTTPResponse.Status = .ok, cookies: [Cookie?]) -> Response {
        var response = PageLayout.response(html, status: status, cacheControl: "no-store", policy: PageLayout.formContentSecurityPolicy)
        for cookie in cookies.compactMap(\.self) { response.setCookie(cookie) }
        return response
    }

    /// 303 to `location`, with `cookies` (the answer of every action: POST → 303 → GET).
    static func redirect(_ location: String, cookies: [Cookie?]) -> Response {
        var response = Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store", .contentLength: "0"])
        for cookie in cookies.compactMap(\.self) { response.setCookie(cookie) }
        return response
    }

    /// The title of an announcement's pages: "MISSING: Dog, Labrador".
    func title(_ details: PetDetails) -> String {
        "\(PetDetailsPresentation(details).status): \(PetPage.title(details))"
    }

    /// The owner's view of the announcement (contact details even when closed), its photos on
    /// this host.
    func details(_ announcement: StoredAnnouncement) async -> PetDetails {
        await services.details([announcement], showContact: true) { "\(ServerServices.photoPathPrefix)/\($0)" }[0]
    }

    /// The sign-in page for a request without a current session (`status` 403 when it tried an
    /// action: nothing was changed).
    func signInPage(_ announcement: StoredAnnouncement, request: Request, status: HTTPResponse.Status = .ok,
                    problem: String? = nil, notice: String? = nil, done: ManageNotice? = nil) async -> Response {
        let issued = services.forms.issue(for: request, now: services.now())
        let html = ManageSignInPage.html(id: announcement.id, title: title(await details(announcement)), token: issued.token,
                                         problem: problem, notice: notice, done: done, mail: services.mail != nil)
        return Self.response(html, status: status, cookies: [issued.cookie])
    }

    /// What the manage page says when a form was made from an older version.
    static let changedElsewhere = "This report was changed on another device (or in another window) after this page was opened, so what you sent was not saved. Below is the report as it is now: make your changes again and save them."

    /// What the sign-in page says when a session was there and is no longer.
    static let sessionEnded = "You were signed out: 30 minutes passed without you opening or changing these pages, or the report was signed out everywhere (a sign-out, a new password or an emailed sign-in link used on another device). Nothing was changed. Sign in again to go on."

    /// The manage page of a signed-in owner, its form filled in with what is stored, the session
    /// renewed for another 30 minutes.
    func managePage(_ announcement: StoredAnnouncement, request: Request, context: some ClientRequestContext,
                    status: HTTPResponse.Status = .ok, done: ManageNotice? = nil, notices: [String] = [],
                    newPassword: String? = nil, extraCookies: [Cookie] = []) async throws -> Response {
        let now = services.now()
        let issued = services.forms.issue(for: request, now: now)
        var size: PixelSize?
        if let key = announcement.photoKey { size = try? await services.variants.size(of: key) }
        let html: HTML = if announcement.request.status == .missing {
            page(MissingReportForm.self, announcement, size: size, token: issued.token, done: done, notices: notices,
                 newPassword: newPassword, now: now)
        } else {
            page(FoundReportForm.self, announcement, size: size, token: issued.token, done: done, notices: notices,
                 newPassword: newPassword, now: now)
        }
        return Self.response(html, status: status, cookies: [
            issued.cookie, session.cookie(for: announcement, now: now, secure: secure(request, context: context)),
        ] + extraCookies)
    }

    private func page<Report: ReportForm>(_ type: Report.Type, _ announcement: StoredAnnouncement, size: PixelSize?, token: String,
                                          done: ManageNotice?, notices: [String], newPassword: String?, now: Date) -> HTML {
        let form = ManageForm<Report>(announcement, photoSize: size, now: now, maxPhotoBytes: services.maxPhotoBytes)
        return ManagePage(id: announcement.id, details: announcement.details(photoURL: { "\(ServerServices.photoPathPrefix)/\($0)" }, showContact: true),
                          form: form, token: token, done: done, notices: notices, newPassword: newPassword).html
    }
}
