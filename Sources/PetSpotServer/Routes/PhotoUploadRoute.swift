import Foundation
import HTTPTypes
import Hummingbird
import PetSpot
import PhotoPipeline

/// `POST /api/v1/announcements/{id}/photos`: 404 for an unknown id, 429 while the id is
/// throttled, 401 for missing or wrong Basic credentials, 413 past the size limit (declared or
/// streamed), 400 for a body without one complete `photo` part, 415 when the bytes are not an
/// accepted image, 422 when they cannot be decoded; else the photo is made upright, ≤ 2048 px
/// and metadata-free, stored by content, and answered with 201 `{"photo_url": …}`. A second
/// upload replaces the first.
struct PhotoUploadRoute<Context: ClientRequestContext & ContinueRequestContext> {
    let services: ServerServices

    func register(on router: Router<Context>) {
        router.post("/api/v1/announcements/:id/photos") { request, context in
            try await upload(request, idText: context.parameters.get("id") ?? "", context: context)
        }
    }

    private func upload(_ request: Request, idText: String, context: Context) async throws -> Response {
        let owner = OwnerCheck(services: services)
        let announcement = try await owner.live(idText)
        let id = announcement.id
        // Without credentials it is 401 whatever else holds (never 429 or 503).
        guard let header = request.headers[.authorization],
              let credentials = AnnouncementCredentials(authorizationHeader: header),
              credentials.id == announcement.id else { throw APIFailure.unauthorized }
        let client = context.client
        if let wait = services.rateLimiter.take(.upload, client: client, now: services.now()) {
            throw APIFailure.rateLimited("photo uploads", retryAfter: wait)
        }
        // The attempt is counted first (a locked-out guess costs neither an upload slot nor
        // bcrypt), then the upload admitted; refused as busy, the attempt is given back.
        let reservation = try await services.throttle.reserve(announcement: announcement.id, client: client, now: services.now())
        do {
            return try await services.uploadAdmission.admit(client: client) {
                try await owner.verify(credentials, for: announcement, reservation: reservation, logger: context.logger)
                return try await receive(request, id: id, idText: idText, context: context)
            }
        } catch is UploadAdmission.Busy {
            await services.throttle.release(reservation)
            throw APIFailure.uploadsBusy(retryAfter: 2)
        }
    }

    private func receive(_ request: Request, id: AnnouncementID, idText: String, context: Context) async throws -> Response {
        let intake = MultipartPhotoIntake(maxPhotoBytes: services.maxPhotoBytes)
        let boundary = try MultipartPhotoIntake.boundary(contentType: request.headers[.contentType])
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > intake.maxBodyBytes {
            throw APIFailure.photoTooLarge(maxPhotoBytes: services.maxPhotoBytes, what: "request body")
        }
        try await context.continueIfExpected(request)
        let file = try UploadFile(in: services.uploadDirectory)
        try await intake.receive(request.body, boundary: boundary, into: file)
        try Self.sniff(file)

        let prepared: PhotoProcessor.Result
        do {
            prepared = try await services.processor.process(file, client: context.client)
        } catch let error as PhotoError {
            throw Self.failure(for: error)
        }
        let key = prepared.key
        let photos = services.photos, data = prepared.data
        let now = services.now()
        // A new photo changes how the report matches: its scan is queued with the new key.
        let outbox = services.mail == nil ? [] : [OutboxItem.job(.matchScan, about: id, at: now)]
        let replacement = try await services.store.setPhoto(id: id, photoKey: key, at: now, outbox: outbox) {
            try await photos.store(data, as: key)
        }
        guard replacement.found else {
            throw APIFailure.notFound(idText)
        }
        services.mail?.queued()
        if let previous = replacement.previousKey, previous != key {
            // The new photo is attached: a failure to remove the old one only leaves it for the sweep.
            await services.removePhotoIfUnreferenced(previous, logger: context.logger)
        }
        context.logger.debug("stored photo \(key) (\(prepared.data.count) bytes, \(prepared.keptAsSent ? "kept as sent" : "re-encoded"))")
        return try JSONResponse.make(status: .created, body: PhotoUploadResponse(photoURL: services.photoURL(for: key)),
                                     headers: [.location: services.photoURL(for: key)])
    }

    /// 415 unless the first bytes say JPEG, PNG, WebP, HEIC/HEIF or AVIF.
    private static func sniff(_ file: UploadFile) throws {
        guard file.byteCount > 0 else {
            throw APIFailure.malformed("The photo part is empty.", field: AnnouncementsAPI.photoPartName)
        }
        guard let type = MediaSniffer.sniff(file.prefix(MediaSniffer.prefixLength)) else {
            throw APIFailure.unsupportedPhoto("not an image")
        }
        guard type.isAccepted else { throw APIFailure.unsupportedPhoto("\(type.article) \(type.displayName)") }
    }

    private static func failure(for error: PhotoError) -> APIFailure {
        switch error {
        case .notAnImage, .empty: .unsupportedPhoto("not an image")
        case .unsupportedType(let type): .unsupportedPhoto(type.displayName)
        case .fileTooLarge(_, let limit): .photoTooLarge(maxPhotoBytes: limit)
        case .truncated, .corrupt, .invalidDimensions, .tooManyPixels, .tooCostlyToDecode, .budgetUnreachable:
            .unprocessablePhoto(error.description)
        case .unreadableFile, .cannotWrite, .diskFull, .encodingFailed, .invalidOption, .codecUnavailable: .internalError
        }
    }
}
