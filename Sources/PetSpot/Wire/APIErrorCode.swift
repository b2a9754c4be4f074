/// A machine-readable error code in an ``APIError``; an open set, encoded as a bare string.
public struct APIErrorCode: RawRepresentable, Codable, Hashable, Sendable, ExpressibleByStringLiteral {
    /// The code as written on the wire.
    public let rawValue: String

    /// Wraps a code.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Wraps a code written as a literal.
    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    /// 400: the request breaks a rule; `field` names which.
    public static let validationFailed: APIErrorCode = "validation_failed"
    /// 400: the body is not the JSON the contract describes.
    public static let malformedRequest: APIErrorCode = "malformed_request"
    /// 401: missing or wrong credentials.
    public static let unauthorized: APIErrorCode = "unauthorized"
    /// 404: no announcement with that id.
    public static let notFound: APIErrorCode = "not_found"
    /// 413: the upload is too large.
    public static let payloadTooLarge: APIErrorCode = "payload_too_large"
    /// 415: the upload is not a JPEG, PNG, WebP, HEIC or AVIF by its bytes.
    public static let unsupportedMediaType: APIErrorCode = "unsupported_media_type"
    /// 500: the server failed.
    public static let internalError: APIErrorCode = "internal_error"
}

extension APIErrorCode {
    /// 422: the photo has an accepted type but is damaged or cannot be processed.
    public static let unprocessablePhoto: APIErrorCode = "unprocessable_photo"
    /// 422: an `Idempotency-Key` was reused with a different request body.
    public static let idempotencyKeyReused: APIErrorCode = "idempotency_key_reused"
    /// 429: too many wrong passwords for one announcement.
    public static let tooManyAttempts: APIErrorCode = "too_many_attempts"
    /// 503: the server cannot take requests right now.
    public static let unavailable: APIErrorCode = "unavailable"
    /// 503: the disk or the store cannot be written (full, read-only, failing).
    public static let storageUnavailable: APIErrorCode = "storage_unavailable"
    /// 429: this client sent more requests of a kind than the server's rate limit allows.
    public static let rateLimited: APIErrorCode = "rate_limited"
    /// 405: the path exists but not with this method (`Allow` lists the methods).
    public static let methodNotAllowed: APIErrorCode = "method_not_allowed"
    /// 408: the request head or body did not arrive in time.
    public static let requestTimeout: APIErrorCode = "request_timeout"
    /// 414: the request line is longer than the server reads.
    public static let uriTooLong: APIErrorCode = "uri_too_long"
    /// 431: the request's header fields are larger than the server reads.
    public static let headersTooLarge: APIErrorCode = "headers_too_large"
}

extension APIErrorCode {
    /// 410: the announcement was taken down by its owner.
    public static let gone: APIErrorCode = "gone"
    /// 412: `If-Match` names a version the announcement no longer has.
    public static let preconditionFailed: APIErrorCode = "precondition_failed"
}
