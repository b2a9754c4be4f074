import Foundation
import HTTPTypes
import Hummingbird
import PetSpot

/// Every answer other than success: an HTTP status, the contract's error body
/// (`{"error": {"code", "message", "field"}}`) and any headers the status needs
/// (`WWW-Authenticate`, `Retry-After`, `Connection: close`).
///
/// Domain errors become HTTP here and nowhere else: storage, the photo pipeline and the intake
/// throw their own errors, which the routes translate with these factories.
struct APIFailure: HTTPResponseError, CustomStringConvertible {
    let status: HTTPResponse.Status
    let error: APIError
    var headers: HTTPFields = [:]

    var description: String { "\(status.code) \(error.code.rawValue): \(error.message)" }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        try JSONResponse.make(status: status, body: APIErrorBody(error: error), headers: headers)
    }
}

extension APIFailure {
    /// 400: the body is not the JSON (or multipart) the contract describes.
    static func malformed(_ message: String, field: String? = nil) -> APIFailure {
        APIFailure(status: .badRequest, error: APIError(code: .malformedRequest, message: message, field: field))
    }

    /// 400: a value breaks one of the form rules.
    static func validation(_ issue: ValidationIssue) -> APIFailure {
        APIFailure(status: .badRequest, error: APIErrorBody(issue: issue).error)
    }

    /// 404: no announcement with that id.
    static func notFound(_ id: String) -> APIFailure {
        APIFailure(status: .notFound, error: APIError(
            code: .notFound, message: "No announcement has the id \"\(id.prefix(80))\". Check the id the create step returned."))
    }

    /// 410: the owner took the announcement down; its details are erased.
    static let gone = APIFailure(status: .gone, error: APIError(
        code: .gone, message: "This announcement was taken down by its owner; its details were erased."))

    /// 412: the announcement changed since the version `If-Match` names.
    static let changedMeanwhile = APIFailure(status: .preconditionFailed, error: APIError(
        code: .preconditionFailed,
        message: "The announcement changed since the version If-Match names (another device, or another edit). Read it again, then send your change."))

    /// 404 for a path no route serves.
    static func noRoute(_ path: String) -> APIFailure {
        APIFailure(status: .notFound, error: APIError(
            code: .notFound, message: "Nothing is served at \(path.prefix(200)). See openapi.yaml for the routes."))
    }

    /// 405 for a known path asked with another method; `Allow` lists the ones it answers.
    static func methodNotAllowed(_ method: String, allowed: [String]) -> APIFailure {
        APIFailure(status: .methodNotAllowed, error: APIError(
            code: .methodNotAllowed, message: "\(method.prefix(20)) is not answered here; use \(allowed.joined(separator: " or "))."),
            headers: [.allow: allowed.joined(separator: ", ")])
    }

    /// 401 with the Basic challenge.
    static let unauthorized = APIFailure(
        status: .unauthorized,
        error: APIError(code: .unauthorized, message: "Changing an announcement (its photo, its fields, closing or deleting it) needs Basic credentials: the announcement's id and its management password."),
        headers: [.wwwAuthenticate: #"Basic realm="petspot", charset="UTF-8""#])

    /// 429: too many wrong passwords for one announcement; try again after `retryAfter` seconds.
    static func tooManyAttempts(retryAfter seconds: Int) -> APIFailure {
        APIFailure(status: .tooManyRequests, error: APIError(
            code: .tooManyAttempts,
            message: "Too many wrong passwords for this announcement. Try again in \(seconds) seconds."),
            headers: [.retryAfter: String(seconds)])
    }

    /// 413: the body, or one of its parts, is larger than the server takes. The connection is
    /// closed so the rest of a large body is not read.
    static func tooLarge(limit: Int, what: String) -> APIFailure {
        APIFailure(status: .contentTooLarge, error: APIError(
            code: .payloadTooLarge,
            message: "The \(what) is larger than this server accepts (\(limit) bytes). Send a smaller photo, e.g. one prepared with `petspot photo prepare`."),
            headers: [.connection: "close"])
    }

    /// 413 for a photo upload, naming the photo limit the server was given (not the body limit
    /// with the multipart overhead), in the message and as `max_photo_bytes`.
    static func photoTooLarge(maxPhotoBytes: Int, what: String = "photo") -> APIFailure {
        APIFailure(status: .contentTooLarge, error: APIError(
            code: .payloadTooLarge,
            message: "The \(what) is larger than this server accepts: photos may be at most \(maxPhotoBytes) bytes. "
                + "Send a smaller photo, e.g. one prepared with `petspot photo prepare --max-bytes \(maxPhotoBytes)B`.",
            maxPhotoBytes: maxPhotoBytes),
            headers: [.connection: "close"])
    }

    /// 415: the photo is not an image type the server accepts, judged by its bytes.
    static func unsupportedPhoto(_ what: String) -> APIFailure {
        APIFailure(status: .unsupportedMediaType, error: APIError(
            code: .unsupportedMediaType,
            message: "The photo is \(what); this server accepts JPEG, PNG, WebP, HEIC or AVIF (judged by the bytes, not the name).",
            field: AnnouncementsAPI.photoPartName))
    }

    /// 415: a create body that is not declared as `application/json`.
    /// 429: this client's rate for a kind of request is used up.
    static func rateLimited(_ what: String, retryAfter seconds: Int) -> APIFailure {
        APIFailure(status: .tooManyRequests, error: APIError(
            code: .rateLimited, message: "Too many \(what) from your address. Try again in \(seconds) seconds."),
            headers: [.retryAfter: String(seconds)])
    }

    /// 503: too many uploads are being received or processed; try again shortly.
    static func uploadsBusy(retryAfter seconds: Int) -> APIFailure {
        APIFailure(status: .serviceUnavailable, error: APIError(
            code: .unavailable, message: "The server is busy with other photo uploads. Try again in \(seconds) seconds."),
            headers: [.retryAfter: String(seconds)])
    }

    /// 503: too many photo sizes are being made at once; the size asked for is made later.
    static func variantsBusy(retryAfter seconds: Int) -> APIFailure {
        APIFailure(status: .serviceUnavailable, error: APIError(
            code: .unavailable, message: "The server is busy making other photo sizes. Try again in \(seconds) seconds, or use the photo's own URL."),
            headers: [.retryAfter: String(seconds)])
    }

    /// 503: the disk or store cannot be written.
    /// 503: the database or photo store does not answer this moment (restarting, a network
    /// blip); a retry in a few seconds usually succeeds.
    static let storeUnreachable = APIFailure(status: .serviceUnavailable, error: APIError(
        code: .storageUnavailable, message: "The server cannot reach its storage right now. Try again in a few seconds."),
        headers: [.retryAfter: "5"])

    static let storageUnavailable = APIFailure(status: .serviceUnavailable, error: APIError(
        code: .storageUnavailable, message: "The server cannot store anything right now (its storage is full or failing). Try again later."),
        headers: [.retryAfter: "60"])

    static func unsupportedRequestType(_ contentType: String?) -> APIFailure {
        APIFailure(status: .unsupportedMediaType, error: APIError(
            code: .unsupportedMediaType,
            message: "The announcement must be sent as JSON with Content-Type: application/json"
                + (contentType.map { " (got \($0.prefix(80)))" } ?? " (no Content-Type was sent)") + "."))
    }

    /// 422: the photo has an accepted type but cannot be turned into an upright JPEG.
    static func unprocessablePhoto(_ reason: String) -> APIFailure {
        APIFailure(status: .unprocessableContent, error: APIError(
            code: .unprocessablePhoto, message: reason, field: AnnouncementsAPI.photoPartName))
    }

    /// 422: the Idempotency-Key was used before with a different body.
    static let idempotencyKeyReused = APIFailure(status: .unprocessableContent, error: APIError(
        code: .idempotencyKeyReused,
        message: "This Idempotency-Key was already used with a different request body. Use a new key for a new announcement."))

    /// 500: the server failed; the cause is logged, never sent.
    static let internalError = APIFailure(status: .internalServerError, error: APIError(
        code: .internalError, message: "The server failed to handle the request. Try again later."))

    /// 503: the server is shutting down or its storage is unavailable.
    static let unavailable = APIFailure(status: .serviceUnavailable, error: APIError(
        code: .unavailable, message: "The server cannot take this request right now. Try again later."),
        headers: [.retryAfter: "5"])
}
