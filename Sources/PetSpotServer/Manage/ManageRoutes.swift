import Foundation
import HTTPTypes
import Hummingbird
import PetSpot

/// The owner's pages of an announcement, below `/pets/{id}/manage`:
///
/// - `GET /pets/{id}/manage`: signed in, the manage page (``ManagePage``); else the sign-in
///   page; 410 once taken down, 404 for no such announcement.
/// - `POST …/sign-in`: the management password (``ManageSignIn``).
/// - `GET`/`POST …/forgot`: a one-time sign-in link by email instead (``ManageForgot``,
///   ``SignInLinkRoutes``).
/// - `POST /pets/{id}/manage`: the report form's changes (``ManageEdit``).
/// - `POST …/status`: "Our pet is home" (closed as reunited), "Close without finding"
///   (withdrawn), "Reopen".
/// - `GET`/`POST …/take-down`: the confirmation, then the API's take-down (410 afterwards).
/// - `POST …/password`: a new management password, shown once; every other session ended.
/// - `POST …/sign-out`: ends every session of the announcement.
///
/// Every post carries the browser's CSRF token (403 without it, nothing changed); every action
/// needs the owner's session (else the sign-in page, 403, nothing changed) and answers 303 to
/// the manage page, which says what was done.
struct ManageRoutes<Context: ClientRequestContext & ContinueRequestContext> {
    let services: ServerServices
    var access: ManageAccess { ManageAccess(services: services) }

    func register(on router: Router<Context>) {
        router.get("/pets/:id/manage") { request, context in
            try await page(request, context: context) { try await show(request, context: context) }
        }
        router.post("/pets/:id/manage/sign-in") { request, context in
            try await page(request, context: context) {
                let announcement = try await access.live(context.parameters.get("id") ?? "")
                return try await ManageSignIn(services: services).signIn(request, announcement: announcement, context: context)
            }
        }
        router.get("/pets/:id/manage/forgot") { request, context in
            try await page(request, context: context) {
                await ManageForgot(services: services).page(request, announcement: try await access.live(context.parameters.get("id") ?? ""))
            }
        }
        router.post("/pets/:id/manage/forgot") { request, context in
            try await page(request, context: context) {
                let announcement = try await access.live(context.parameters.get("id") ?? "")
                return try await ManageForgot(services: services).send(request, announcement: announcement, context: context)
            }
        }
        router.post("/pets/:id/manage") { request, context in
            try await owner(request, context: context) { announcement in
                try await ManageEdit<Context>(services: services).save(request, current: announcement, context: context)
            }
        }
        router.post("/pets/:id/manage/status") { request, context in
            try await owner(request, context: context) { try await status(request, announcement: $0, context: context) }
        }
        router.get("/pets/:id/manage/take-down") { request, context in
            try await owner(request, context: context) { announcement in
                let issued = services.forms.issue(for: request, now: services.now())
                let html = ManageSignInPage.takeDown(id: announcement.id, title: access.title(await access.details(announcement)), token: issued.token)
                return ManageAccess.response(html, cookies: [issued.cookie])
            }
        }
        router.post("/pets/:id/manage/take-down") { request, context in
            try await owner(request, context: context) { try await takeDown(request, announcement: $0, context: context) }
        }
        router.post("/pets/:id/manage/password") { request, context in
            try await owner(request, context: context) { try await newPassword(request, announcement: $0, context: context) }
        }
        router.post("/pets/:id/manage/sign-out") { request, context in
            try await owner(request, context: context) { try await signOut(request, announcement: $0, context: context) }
        }
    }

    /// `body`'s page, or the failure as a page (never cached: it may answer a post).
    private func page(_ request: Request, context: Context, _ body: () async throws -> Response) async throws -> Response {
        do {
            return try await body()
        } catch {
            let failure = APIFailure.thrown(error, request: request, context: context)
            if failure.status == .gone {
                return ManageAccess.response(ManageSignInPage.gone(done: false), status: .gone, cookies: [])
            }
            return FormRefusal.response(for: failure)
        }
    }

    /// `action` for the signed-in owner of the live announcement the path names; without a
    /// session, the sign-in page (403) before the body is read, nothing changed.
    private func owner(_ request: Request, context: Context,
                       _ action: @escaping (StoredAnnouncement) async throws -> Response) async throws -> Response {
        try await page(request, context: context) {
            let announcement = try await access.live(context.parameters.get("id") ?? "")
            switch access.session.verify(request, for: announcement, now: services.now()) {
            case .signedIn:
                return try await action(announcement)
            case .ended:
                return await access.signInPage(announcement, request: request, status: .forbidden, notice: ManageAccess.sessionEnded)
            case .none, .invalid:
                return await access.signInPage(announcement, request: request, status: .forbidden,
                                               notice: "Only the person who posted this report can change it: sign in with its management password. Nothing was changed.")
            }
        }
    }

    private func show(_ request: Request, context: Context) async throws -> Response {
        let done = request.uri.queryParameters[Substring(ManageNotice.parameter)].flatMap { ManageNotice(rawValue: String($0)) }
        switch try await access.lookup(context.parameters.get("id") ?? "") {
        case .unknown:
            throw ManageAccess.notFound
        case .gone:
            return ManageAccess.response(ManageSignInPage.gone(done: done == .takenDown), status: .gone, cookies: [])
        case .live(let announcement):
            switch access.session.verify(request, for: announcement, now: services.now()) {
            case .signedIn:
                guard done == .newPassword, let receipt = ReportReceipt.open(request, browser: services.forms.browser(of: request),
                                                                               keyring: services.keyring, now: services.now()),
                      receipt.id == announcement.id.rawValue else {
                    return try await access.managePage(announcement, request: request, context: context, done: done)
                }
                // Shown once: the receipt is deleted with this page.
                return try await access.managePage(announcement, request: request, context: context, done: done, newPassword: receipt.password,
                                                   extraCookies: [ReportReceipt.deletion(secure: access.secure(request, context: context),
                                                                                         path: OwnerSession.path(announcement.id))])
            case .ended:
                return await access.signInPage(announcement, request: request, notice: done == .signedOut ? nil : ManageAccess.sessionEnded,
                                               done: done == .signedOut ? done : nil)
            case .none, .invalid:
                return await access.signInPage(announcement, request: request, done: done == .signedOut ? done : nil)
            }
        }
    }

    /// "Our pet is home", "Close without finding", "Reopen": the API's closing and reopening,
    /// conditional on the version the page was made from.
    private func status(_ request: Request, announcement: StoredAnnouncement, context: Context) async throws -> Response {
        let (fields, _) = try await access.smallForm(request, context: context)
        guard let action = ManageAction(rawValue: fields.text(ManageField.action)) else {
            throw APIFailure.malformed("The status form says \"reunited\", \"withdrawn\" or \"reopen\".", field: ManageField.action)
        }
        guard Int(fields.text(ManageField.version)) == announcement.revision else {
            return try await access.managePage(announcement, request: request, context: context, status: .conflict,
                                               notices: [ManageAccess.changedElsewhere])
        }
        let now = services.now()
        var changed = announcement
        changed.updatedAt = now
        let done: ManageNotice
        switch action {
        case .reunited:
            AnnouncementPatch.close(&changed, as: .reunited, now: now)
            done = .reunited
        case .withdrawn:
            AnnouncementPatch.close(&changed, as: .withdrawn, now: now)
            done = .withdrawn
        case .reopen:
            AnnouncementPatch.reopen(&changed)
            done = .reopened
        }
        // Reopened, it is scanned for matches again (closed, nothing is queued), as after the API's PATCH.
        let outbox = services.outboxForChangedReport(changed, at: now)
        guard let stored = try await services.store.update(changed, outbox: outbox) else {
            guard case .live(let latest) = try await services.store.lookup(id: announcement.id) else { throw APIFailure.gone }
            return try await access.managePage(latest, request: request, context: context, status: .conflict,
                                               notices: [ManageAccess.changedElsewhere])
        }
        if !outbox.isEmpty { services.mail?.queued() }
        context.logger.info("the owner changed an announcement's status from its manage page",
                            metadata: ["announcement": .string(stored.id.rawValue), "status": .string(action.rawValue)])
        return ManageAccess.redirect(done.url(OwnerSession.path(stored.id)), cookies: [
            access.session.cookie(for: stored, now: services.now(), secure: access.secure(request, context: context)),
        ])
    }

    /// The API's take-down: the row erased to a tombstone, the photo removed, the session ended.
    private func takeDown(_ request: Request, announcement: StoredAnnouncement, context: Context) async throws -> Response {
        _ = try await access.smallForm(request, context: context)
        guard let previous = try await services.store.takeDown(id: announcement.id, at: services.now()) else { throw APIFailure.gone }
        if let key = previous { await services.removePhotoIfUnreferenced(key, logger: context.logger) }
        context.logger.info("announcement taken down by its owner", metadata: ["announcement": .string(announcement.id.rawValue)])
        return ManageAccess.redirect(ManageNotice.takenDown.url(OwnerSession.path(announcement.id)), cookies: [
            OwnerSession.deletion(announcement.id, secure: access.secure(request, context: context)),
        ])
    }

    /// A new management password: stored only in its keyed form, every other session ended,
    /// this browser signed in again; the password reaches the page in a receipt cookie sealed to
    /// this browser (never in a URL), shown once.
    private func newPassword(_ request: Request, announcement: StoredAnnouncement, context: Context) async throws -> Response {
        let (_, browser) = try await access.smallForm(request, context: context)
        var generator = SystemRandomNumberGenerator()
        let password = AnnouncementCredentials.makePassword(using: &generator)
        let hash = services.keyring.seal(id: announcement.id.rawValue, password: password)
        guard let stored = try await services.store.endOwnerSessions(id: announcement.id, newPasswordHash: hash, ifGeneration: nil) else { throw APIFailure.gone }
        context.logger.info("the owner made a new management password", metadata: ["announcement": .string(stored.id.rawValue)])
        let secure = access.secure(request, context: context)
        let receipt = ReportReceipt(id: stored.id.rawValue, password: password, changedSince: false,
                                    expires: services.now().timeIntervalSince1970 + 300)
        return ManageAccess.redirect(ManageNotice.newPassword.url(OwnerSession.path(stored.id)), cookies: [
            access.session.cookie(for: stored, now: services.now(), secure: secure),
            try receipt.cookie(for: browser, keyring: services.keyring, secure: secure, path: OwnerSession.path(stored.id)),
        ])
    }

    /// Ends every session of the announcement (a copied cookie included) and this browser's.
    private func signOut(_ request: Request, announcement: StoredAnnouncement, context: Context) async throws -> Response {
        _ = try await access.smallForm(request, context: context)
        _ = try await services.store.endOwnerSessions(id: announcement.id, newPasswordHash: nil, ifGeneration: nil)
        return ManageAccess.redirect(ManageNotice.signedOut.url(OwnerSession.path(announcement.id)), cookies: [
            OwnerSession.deletion(announcement.id, secure: access.secure(request, context: context)),
        ])
    }
}
