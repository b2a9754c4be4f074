import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PetSpot

/// `POST /report/photo`: the page's script sends the photo as soon as it is chosen (multipart:
/// the form's `csrf_token`, then `photo`, and `photo_header` — the original's first bytes, when
/// the script made the photo smaller — for its GPS position). The photo is prepared and kept as
/// the form's pending photo, as if it had come with the form:
///
/// - 201 `{"token", "thumbnail", "width", "height", "offer"}`: the token for the form's
///   `photo_token`, the thumbnail's path, and the sentence offering the photo's place, or null;
/// - 422 `{"error": {"code": "unprocessable_photo", "message", "field": "photo"}}`: the
///   pipeline's refusal, to show beside the photo question;
/// - 403 without a valid form token, 413 past the upload limit, 429 past the client's upload
///   rate, 503 while every upload slot is taken.
struct ReportPhotoRoute<Context: ClientRequestContext & ContinueRequestContext> {
    let services: ServerServices

    struct Answer: Encodable {
        var token: String
        var thumbnail: String
        var width: Int
        var height: Int
        var offer: String?
    }

    func receive(_ request: Request, context: Context) async throws -> Response {
        let forms = services.forms
        if let wait = services.rateLimiter.take(.upload, client: context.client, now: services.now()) {
            throw APIFailure.rateLimited("photo uploads", retryAfter: wait)
        }
        var limits = ReportSubmission<Context>(services: services).limits
        limits.fileOverflowBytes = 0
        let reader = FormBodyReader(limits: limits, uploadDirectory: services.uploadDirectory)
        do {
            return try await services.uploadAdmission.admit(client: context.client) {
                let (body, browser, _) = try await reader.readProtected(request, context: context, forms: forms)
                guard let file = body.file else {
                    throw APIFailure.malformed("The body has no file part named \"photo\".", field: "photo")
                }
                let intake = ReportPhotoIntake(services: services)
                switch try await intake.keep(file, header: body.smallFiles[ReportPaths.headerPart], browser: browser, client: context.client, logger: context.logger) {
                case .refused(let issue):
                    throw APIFailure.unprocessablePhoto(issue.message)
                case .kept(let kept):
                    return try JSONResponse.make(status: .created, body: Answer(token: kept.token, thumbnail: kept.thumbnail.path,
                                                                                width: kept.upload.width, height: kept.upload.height,
                                                                                offer: kept.offer),
                                                 headers: [.cacheControl: "no-store"])
                }
            }
        } catch is UploadAdmission.Busy {
            throw APIFailure.uploadsBusy(retryAfter: 2)
        }
    }
}
