import Foundation
import HTTPTypes
import Hummingbird
import Logging
import PetSpot

/// A report form's post, from body to announcement:
///
/// 1. the body is read as it arrives (``FormBodyReader``), its CSRF token checked before its
///    photo (403, nothing read further or stored);
/// 2. the honeypot and the minimum fill time (``BotCheck``);
/// 3. a form that already created its announcement (its idempotency key's record) goes to that
///    announcement's confirmation: a double tap, a refresh, the back button;
/// 4. the photo: a new file prepared and kept (``ReportPhotoIntake``), or the one kept from an
///    earlier send; the pipeline's refusal becomes the photo's problem;
/// 5. "where" resolved (``ReportLocation``), the values read with the domain's rules
///    (``ReportForm/read(location:now:)``);
/// 6. with any problem, the form again (422): every problem at once, every value and the photo
///    kept; else the API's create limit, then the announcement stored with its photo in one
///    insert, and 303 to the confirmation with the password in a receipt cookie.
struct ReportSubmission<Context: ClientRequestContext & ContinueRequestContext> {
    let services: ServerServices

    /// The body limits of a report form: its text fields, the photo up to the upload limit, and
    /// the original's header the script sends beside a photo it made smaller.
    var limits: FormBodyReader.Limits {
        FormBodyReader.Limits(fieldBytes: 8 * 1024, textBytes: 32 * 1024, parts: 32, partHeaderBytes: 2 * 1024,
                              filePart: "photo", fileBytes: services.maxPhotoBytes, fileOverflowBytes: services.maxPhotoBytes,
                              smallFiles: [ReportPaths.headerPart: ReportPaths.headerBytes])
    }

    func submit<Form: ReportForm>(_ type: Form.Type, _ request: Request, context: Context) async throws -> Response {
        let forms = services.forms
        let reader = FormBodyReader(limits: limits, uploadDirectory: services.uploadDirectory)
        let (body, browser, issuedAt) = try await reader.readProtected(request, context: context, forms: forms)
        var fields = body.fields
        // The form shown again keeps its token (and so the time it was first shown).
        let token = fields.text(FormProtection.fieldName)
        let now = services.now()
        let notices = try BotCheck.notices(fields, issuedAt: issuedAt, now: now)
        // The form's own key, bound to this browser and namespaced: no API client's key and no
        // other browser's copy of the form can meet it (a repeat opens the first answer, password
        // included).
        let formKey = fields[ReportField.idempotencyKey].flatMap { IdempotencyVault.isValidKey($0) && $0.utf8.count <= 64 ? $0 : nil }
            ?? UUID().uuidString.lowercased()
        fields.set(ReportField.idempotencyKey, formKey)
        let key = "report-form:\(browser.digest.prefix(32)):\(formKey)"
        let creation = AnnouncementCreation(services: services)
        let post = ReportFormPost(services: services)

        // The photo kept from an earlier send, unless removed.
        var photo = try await post.keptPhoto(&fields, kind: Form.kind, initial: nil, browser: browser, logger: context.logger)

        if let record = try await creation.existing(key: key, now: now) {
            // Sent again after it created its announcement: that announcement, whatever changed.
            let location = try await ReportLocation.resolve(fields, photo: photo.kept, gazetteer: services.gazetteer)
            let form = Form(fields: fields, photo: photo.kept, dates: ReportDates(now: now), maxPhotoBytes: services.maxPhotoBytes)
            let request = form.read(location: location, now: now).0
            let same = body.file == nil && request.map { Self.digest($0) == record.requestDigest } == true
            return try await confirm(record, key: key, changedSince: !same, browser: browser)
        }

        try await post.receive(body, into: &photo, browser: browser, client: context.client, logger: context.logger)
        let location = try await post.place(&fields, photo: photo.kept)
        var form = Form(fields: fields, photo: photo.kept, dates: ReportDates(now: now), maxPhotoBytes: services.maxPhotoBytes)
        var (announcement, issues) = form.read(location: location, now: now)
        if let photoIssue = photo.issue {
            // The photo's own problem, not also "Photo is mandatory".
            issues = issues.filter { $0.field != .photo } + [photoIssue]
            announcement = nil
        }
        guard let announcement, notices.isEmpty else {
            form.problems = Form.problems(from: issues, inputs: form.inputs)
            return ReportFormPage.response(ReportFormPage.html(form, token: token, idempotencyKey: formKey, notices: notices),
                                           status: .unprocessableContent, cookie: nil)
        }
        if let wait = services.rateLimiter.take(.create, client: context.client, now: now) {
            let message = "Too many reports were sent from your address. Try again in \(wait) seconds; everything you entered is kept."
            var response = ReportFormPage.response(ReportFormPage.html(form, token: token, idempotencyKey: formKey, notices: [message]),
                                                   status: .tooManyRequests, cookie: nil)
            response.headers[.retryAfter] = String(wait)
            return response
        }
        switch try await creation.create(announcement, photoKey: photo.kept?.upload.photoKey, key: key,
                                         requestDigest: Self.digest(announcement), client: context.client,
                                         now: now, logger: context.logger) {
        case .created(let id, let response):
            if let photo = photo.kept, let pending = services.store as? any PendingUploadStoring {
                // The announcement holds the photo now; a failure here only leaves the row for the sweep.
                do { try await pending.removePendingUpload(tokenDigest: photo.upload.tokenDigest) } catch {
                    context.logger.warning("a report form's kept photo stays recorded until the sweep: \(error)")
                }
            }
            let password = try PetSpotJSON.decode(AnnouncementResponse.self, from: response).managementPassword
            return try redirect(to: id, receipt: ReportReceipt(id: id.rawValue, password: password, changedSince: false,
                                                               expires: now.timeIntervalSince1970 + Double(ReportReceipt.lifetime)),
                                browser: browser)
        case .existing(let record):
            return try await confirm(record, key: key, changedSince: record.requestDigest != Self.digest(announcement), browser: browser)
        }
    }

    /// What a repeat of the form must match to be the same report: the request's canonical JSON
    /// (a photo changed after the report was sent is not told apart: the report keeps its own).
    static func digest(_ request: CreateAnnouncementRequest) -> String {
        IdempotencyVault.digest(ofRequest: (try? PetSpotJSON.encode(request)) ?? Data())
    }

    /// The confirmation of the announcement an earlier send of this form created (410 when it
    /// was taken down since).
    private func confirm(_ record: IdempotencyRecord, key: String, changedSince: Bool, browser: FormProtection.Browser) async throws -> Response {
        if case .gone = try await services.store.lookup(id: record.announcementID) { throw APIFailure.gone }
        let answer = try PetSpotJSON.decode(AnnouncementResponse.self, from: AnnouncementCreation(services: services).answer(of: record, key: key))
        return try redirect(to: record.announcementID,
                            receipt: ReportReceipt(id: answer.id.rawValue, password: answer.managementPassword, changedSince: changedSince,
                                                   expires: services.now().timeIntervalSince1970 + Double(ReportReceipt.lifetime)),
                            browser: browser)
    }

    /// 303 to the confirmation, the password in the receipt cookie (never in the URL).
    private func redirect(to id: AnnouncementID, receipt: ReportReceipt, browser: FormProtection.Browser) throws -> Response {
        var response = Response(status: .seeOther, headers: [
            .location: "\(ReportPaths.sentPrefix)/\(id.rawValue)",
            .cacheControl: "no-store",
            .contentLength: "0",
        ])
        response.setCookie(try receipt.cookie(for: browser, keyring: services.keyring, secure: services.forms.secureCookies))
        return response
    }
}
