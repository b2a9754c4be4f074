import Foundation
import HTTPTypes
import Hummingbird
import PetSpot

/// `/mail/sign-in/{token}`, where an emailed sign-in link (``SignInLink``) leads:
///
/// - `GET` checks the link and shows a "Sign in" button with a form token; it changes nothing
///   (mail programs and link scanners fetch the links in mail).
/// - `POST` (the button: the CSRF token first, 403 without it) moves the report's session
///   generation on if it is still the link's — one statement, so the link works once however
///   many posts race — and answers 303 to the manage page with a session cookie for this
///   browser. The button's post comes from this site, so the `SameSite=Strict` cookie goes with
///   the redirect that follows.
///
/// A link this server did not make is 404; one past its hour or used is 410, with the way to a
/// new one; a report taken down is 410. Every answer is `no-store`, `Referrer-Policy:
/// no-referrer` (the token is in the address) and `noindex`; the request log writes the path
/// without the token (``MailLinkPaths``).
struct SignInLinkRoutes<Context: ClientRequestContext & ContinueRequestContext> {
    let services: ServerServices
    var access: ManageAccess { ManageAccess(services: services) }

    func register(on router: Router<Context>) {
        router.get("\(SignInLink.pathPrefix):token") { request, context in
            try await answer(request, context: context) { link, announcement in
                let issued = services.forms.issue(for: request, now: services.now())
                let html = SignInLinkPages.follow(title: access.title(await access.details(announcement)), path: request.uri.path,
                                                  token: issued.token)
                return ManageAccess.response(html, cookies: [issued.cookie])
            }
        }
        router.post("\(SignInLink.pathPrefix):token") { request, context in
            try await answer(request, context: context) { link, announcement in
                _ = try await access.smallForm(request, context: context)
                guard let stored = try await services.store.endOwnerSessions(id: announcement.id, newPasswordHash: nil,
                                                                               ifGeneration: link.generation) else {
                    // Another post of the same link (or a sign-out) came first.
                    return ManageAccess.response(SignInLinkPages.unusable(id: announcement.id, .used), status: .gone, cookies: [])
                }
                context.logger.info("the owner signed in with an emailed link", metadata: ["announcement": .string(stored.id.rawValue)])
                let cookie = access.session.cookie(for: stored, now: services.now(), secure: access.secure(request, context: context))
                return ManageAccess.redirect(ManageNotice.signedInByLink.url(OwnerSession.path(stored.id)), cookies: [cookie])
            }
        }
    }

    /// `action` for a genuine link that can still sign in, otherwise the page that says why;
    /// every answer kept out of Referer headers and search indexes.
    private func answer(_ request: Request, context: Context,
                        _ action: (SignInLink, StoredAnnouncement) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await usable(context.parameters.get("token") ?? "", action)
        } catch {
            response = FormRefusal.response(for: APIFailure.thrown(error, request: request, context: context))
        }
        response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        response.headers[HTTPField.Name("X-Robots-Tag")!] = "noindex"
        return response
    }

    private func usable(_ token: String, _ action: (SignInLink, StoredAnnouncement) async throws -> Response) async throws -> Response {
        guard let link = SignInLink.verify(token, keyring: services.keyring) else {
            return MailLinkRoutes<Context>.page(.notFound, title: "Not found", body: MailLinkRoutes<Context>.invalidLink)
        }
        guard case .live(let announcement) = try await services.store.lookup(id: link.id) else {
            return ManageAccess.response(ManageSignInPage.gone(done: false), status: .gone, cookies: [])
        }
        let state = link.state(for: announcement, now: services.now())
        guard state == .usable else {
            return ManageAccess.response(SignInLinkPages.unusable(id: announcement.id, state), status: .gone, cookies: [])
        }
        return try await action(link, announcement)
    }
}
