import Foundation
import HTTPTypes
import Hummingbird
import Logging
import PetSpot
import PhotoPipeline

/// `POST /pets/{id}/manage`: the report form sent back with changes, by the signed-in owner.
///
/// 1. The body is read as it arrives, its CSRF token checked before its photo (403, nothing
///    read further); the version the form was made from must still be the announcement's, or
///    the page says it changed elsewhere and shows it as it is now (409), saving nothing.
/// 2. The photo (``ReportFormPost``): the report's own, a new file prepared by the pipeline and
///    kept as a pending upload, or removed; then the place and every rule of the report form,
///    all problems at once with every value kept (422).
/// 3. Saved with the store's lifecycle operations, as the API's PATCH and photo upload: the
///    fields conditional on the version (``AnnouncementStoring/update(_:)``), then the new photo
///    attached (``AnnouncementStoring/setPhoto(id:photoKey:at:storing:)``) before the previous
///    one is removed, or the photo detached; then 303 to the manage page.
struct ManageEdit<Context: ClientRequestContext & ContinueRequestContext> {
    let services: ServerServices
    var access: ManageAccess { ManageAccess(services: services) }

    func save(_ request: Request, current: StoredAnnouncement, context: Context) async throws -> Response {
        if current.request.status == .missing {
            return try await save(MissingReportForm.self, request, current: current, context: context)
        }
        return try await save(FoundReportForm.self, request, current: current, context: context)
    }

    private func save<Report: ReportForm>(_ type: Report.Type, _ request: Request, current: StoredAnnouncement,
                                          context: Context) async throws -> Response {
        let reader = FormBodyReader(limits: ReportSubmission<Context>(services: services).limits, uploadDirectory: services.uploadDirectory)
        let (body, browser, _) = try await reader.readProtected(request, context: context, forms: services.forms)
        var fields = body.fields
        guard let version = Int(fields.text(ManageField.version)), version == current.revision else {
            return try await access.managePage(current, request: request, context: context, status: .conflict, notices: [ManageAccess.changedElsewhere])
        }
        let now = services.now()
        let post = ReportFormPost(services: services)
        var storedSize: PixelSize?
        if let key = current.photoKey { storedSize = try? await services.variants.size(of: key) }
        let initial = current.photoKey.map { ManageForm<Report>.stored($0, size: storedSize, at: current.updatedAt) }
        var photo = try await post.keptPhoto(&fields, kind: Report.kind, initial: initial, browser: browser, logger: context.logger)
        try await post.receive(body, into: &photo, browser: browser, client: context.client, logger: context.logger)
        let location = try await post.place(&fields, photo: photo.kept)
        var report = Report(fields: fields, photo: photo.kept, dates: ReportDates(now: now), maxPhotoBytes: services.maxPhotoBytes)
        var (changedRequest, issues) = report.read(location: location, now: now)
        if let issue = photo.issue {
            issues = issues.filter { $0.field != .photo } + [issue]
            changedRequest = nil
        }
        guard let changedRequest else {
            report.problems = Report.problems(from: issues, inputs: report.inputs)
            return try await problems(ManageForm(report: report, version: version, photoIsStored: photo.kept != nil && !photo.isNew),
                                      current: current, request: request, context: context)
        }

        let newPhoto = photo.isNew ? photo.kept : nil
        let removesPhoto = photo.kept == nil && current.photoKey != nil
        guard changedRequest != current.request || newPhoto != nil || removesPhoto else {
            return ManageAccess.redirect(ManageNotice.unchanged.url(OwnerSession.path(current.id)), cookies: [session(current, request, context)])
        }
        var changed = current
        changed.request = changedRequest
        changed.updatedAt = now
        if changedRequest.locationLatitude != current.request.locationLatitude || changedRequest.locationLongitude != current.request.locationLongitude {
            changed.placeText = await services.placeText(for: changedRequest, logger: context.logger)
        }
        // The version is claimed first, whatever else changes: a save from a page made before
        // another device's change never lands. An open report is scanned for matches again, as
        // after the API's PATCH; with a new photo the scan is queued with the photo instead.
        let outbox = newPhoto == nil ? services.outboxForChangedReport(changed, at: now) : []
        guard let stored = try await services.store.update(changed, outbox: outbox) else {
            return try await conflict(current.id, request: request, context: context)
        }
        if !outbox.isEmpty { services.mail?.queued() }
        if let newPhoto {
            try await attach(newPhoto, to: stored, context: context)
        } else if removesPhoto, let previous = try await services.store.detachPhoto(id: current.id, at: now), let key = previous {
            await services.removePhotoIfUnreferenced(key, logger: context.logger)
        }
        context.logger.info("the owner changed an announcement from its manage page", metadata: ["announcement": .string(current.id.rawValue)])
        return ManageAccess.redirect(ManageNotice.saved.url(OwnerSession.path(current.id)), cookies: [session(stored, request, context)])
    }

    /// Points the announcement at the form's new photo (already stored, held by its pending
    /// upload), then removes the previous photo and forgets the pending upload. The session stays
    /// the one `announcement` has: a photo changes neither its id nor its session generation.
    private func attach(_ photo: KeptPhoto, to announcement: StoredAnnouncement, context: Context) async throws {
        let date = services.now()
        // A new photo changes how the report matches: its scan is queued with the new key.
        let replacement = try await services.store.setPhoto(id: announcement.id, photoKey: photo.upload.photoKey, at: date,
                                                            outbox: services.outboxForChangedReport(announcement, at: date)) {}
        guard replacement.found else { throw APIFailure.gone }
        services.mail?.queued()
        if let previous = replacement.previousKey, previous != photo.upload.photoKey {
            await services.removePhotoIfUnreferenced(previous, logger: context.logger)
        }
        if let pending = services.store as? any PendingUploadStoring {
            do { try await pending.removePendingUpload(tokenDigest: photo.upload.tokenDigest) } catch {
                context.logger.warning("a manage form's photo stays recorded as pending until the sweep: \(error)")
            }
        }
    }

    /// The form again with its problems (422): every value kept, the photo chosen kept too.
    private func problems<Report: ReportForm>(_ form: ManageForm<Report>, current: StoredAnnouncement, request: Request,
                                              context: Context) async throws -> Response {
        let now = services.now()
        let issued = services.forms.issue(for: request, now: now)
        let details = current.details(photoURL: { "\(ServerServices.photoPathPrefix)/\($0)" }, showContact: true)
        let html = ManagePage(id: current.id, details: details, form: form, token: issued.token).html
        return ManageAccess.response(html, status: .unprocessableContent, cookies: [issued.cookie, session(current, request, context)])
    }

    /// The page as the announcement is now, saying a change made elsewhere won (409).
    private func conflict(_ id: AnnouncementID, request: Request, context: Context) async throws -> Response {
        guard case .live(let now) = try await services.store.lookup(id: id) else { throw APIFailure.gone }
        return try await access.managePage(now, request: request, context: context, status: .conflict, notices: [ManageAccess.changedElsewhere])
    }

    private func session(_ announcement: StoredAnnouncement, _ request: Request, _ context: Context) -> Cookie {
        access.session.cookie(for: announcement, now: services.now(), secure: access.secure(request, context: context))
    }
}
