/// The body of every error answer: `{"error": {"code", "message", "field"}}`.
public struct APIErrorBody: Codable, Hashable, Sendable {
    /// The error itself.
    public var error: APIError

    /// Creates an error body.
    public init(error: APIError) {
        self.error = error
    }

    /// Creates the body of a 400 for a validation issue, naming the request key it is about.
    public init(issue: ValidationIssue) {
        error = APIError(code: .validationFailed, message: issue.message, field: issue.field.wireKey)
    }
}

/// What went wrong: a machine-readable code, a message for people, and the request field it
/// is about (`null` when it is about no single field).
public struct APIError: Codable, Hashable, Sendable {
    /// The machine-readable code, e.g. `validation_failed`.
    public var code: APIErrorCode
    /// A full sentence for people.
    public var message: String
    /// The request key at fault, e.g. `location_latitude`; encoded as `null` when absent.
    public var field: String?
    /// On a 413 for a photo upload: the largest photo the server accepts, in bytes (absent
    /// otherwise), so a client can prepare the photo again under it.
    public var maxPhotoBytes: Int?
    /// On a 404 for a place name: places spelled closely, as "Mokotów, Warsaw, Poland" (absent
    /// otherwise). Offered, never taken in place of the name asked for.
    public var didYouMean: [String]?

    /// Creates an error.
    public init(code: APIErrorCode, message: String, field: String? = nil, maxPhotoBytes: Int? = nil, didYouMean: [String]? = nil) {
        self.code = code
        self.message = message
        self.field = field
        self.maxPhotoBytes = maxPhotoBytes
        self.didYouMean = didYouMean
    }

    enum CodingKeys: String, CodingKey {
        case code, message, field
        case maxPhotoBytes = "max_photo_bytes"
        case didYouMean = "did_you_mean"
    }

    /// Encodes all three keys, `field` as `null` when absent, so the shape never varies.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code, forKey: .code)
        try container.encode(message, forKey: .message)
        if let field {
            try container.encode(field, forKey: .field)
        } else {
            try container.encodeNil(forKey: .field)
        }
        try container.encodeIfPresent(maxPhotoBytes, forKey: .maxPhotoBytes)
        try container.encodeIfPresent(didYouMean, forKey: .didYouMean)
    }
}
