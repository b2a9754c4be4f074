import Foundation
import Logging
import PetSpot

/// The photo and the place of a report form's post, read alike wherever the report form is
/// sent: a new report, and the manage page's changes to one.
///
/// - The photo: the one the form holds (kept from an earlier send or sent ahead by the page's
///   script, by its token; or the one it started with, such as the announcement's own), unless
///   "Remove this photo" is ticked; a new file replaces it, prepared by the pipeline exactly as
///   an API upload (``ReportPhotoIntake``), its refusal the photo's problem.
/// - The place: ``ReportLocation``, the coordinates written into the form's hidden fields so a
///   form sent back keeps them.
struct ReportFormPost {
    let services: ServerServices

    /// The photo of a post, and whether it is new in this form (not the one it started with).
    struct Photo {
        var kept: KeptPhoto?
        var isNew: Bool
        /// The photo's own problem, which replaces "Photo is mandatory".
        var issue: ValidationIssue?
    }

    /// The photo a post of a `kind` form holds before its file is looked at: the one its token
    /// names, else `initial` (none when "Remove this photo" is ticked); takes the remove box out
    /// of `fields`.
    /// - Parameter initial: the photo the form started with (no token).
    func keptPhoto(_ fields: inout FormFields, kind: AnnouncementStatus, initial: KeptPhoto?,
                   browser: FormProtection.Browser, logger: Logger) async throws -> Photo {
        let intake = ReportPhotoIntake(services: services)
        var photo = Photo(kept: initial, isNew: false, issue: nil)
        let token = fields.text(ReportField.photoToken)
        if kind == .missing && fields.isChecked(ReportField.removePhoto) {
            photo.kept = nil
        } else if !token.isEmpty {
            do {
                if let kept = try await intake.kept(token: token, browser: browser, logger: logger) {
                    photo = Photo(kept: kept, isNew: true, issue: nil)
                }
            } catch is ReportPhotoIntake.Expired {
                photo.issue = ValidationIssue(field: .photo, message: ValidationMessage.photoExpired)
            }
        }
        fields.set(ReportField.removePhoto, nil)
        return photo
    }

    /// The post's new file, when it has one, prepared and kept in place of `photo`; the
    /// pipeline's refusal, a photo too large, the upload rate or a busy server become its problem.
    func receive(_ body: FormBodyReader.Body, into photo: inout Photo, browser: FormProtection.Browser,
                 client: String, logger: Logger) async throws {
        let intake = ReportPhotoIntake(services: services)
        if body.fileTooLarge {
            photo.issue = PhotoRefusal.tooLarge(limit: services.maxPhotoBytes)
        } else if let file = body.file {
            if let wait = services.rateLimiter.take(.upload, client: client, now: services.now()) {
                photo.issue = ValidationIssue(field: .photo, message: "Too many photos were sent from your address. Try again in \(wait) seconds; the rest of the form is kept.")
            } else {
                do {
                    let header = body.smallFiles[ReportPaths.headerPart]
                    switch try await services.uploadAdmission.admit(client: client, { try await intake.keep(file, header: header, browser: browser, client: client, logger: logger) }) {
                    case .kept(let kept):
                        photo = Photo(kept: kept, isNew: true, issue: nil)
                    case .refused(let issue):
                        photo.issue = issue
                    }
                } catch is UploadAdmission.Busy {
                    photo.issue = ValidationIssue(field: .photo, message: "The server is busy with other photos. Send the form again in a moment; the rest of it is kept.")
                }
            }
        }
    }

    /// Where the post says the pet was; the coordinates found (or none) written into `fields`.
    func place(_ fields: inout FormFields, photo: KeptPhoto?) async throws -> Result<ReportLocation.Point, ReportLocation.Problem> {
        let location = try await ReportLocation.resolve(fields, photo: photo, gazetteer: services.gazetteer)
        switch location {
        case .success(let point):
            if fields.isChecked(ReportField.usePhotoPlace), let label = point.label { fields.set("where", label) }
            fields.set(ReportField.latitude, ReportLocation.text(point.latitude))
            fields.set(ReportField.longitude, ReportLocation.text(point.longitude))
            fields.set(ReportField.whereResolved, fields.text("where"))
        case .failure:
            for name in [ReportField.latitude, ReportField.longitude, ReportField.whereResolved] { fields.set(name, nil) }
        }
        return location
    }
}
