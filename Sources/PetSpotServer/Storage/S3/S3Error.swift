/// What goes wrong talking to the object store. Messages name the operation, the store's own
/// error code and what to do; never a credential.
public enum S3Error: Error, Sendable, CustomStringConvertible {
    /// The options do not describe a usable store.
    case badConfiguration(String)
    /// The store answered with a refusal that retrying will not change (403 AccessDenied,
    /// SignatureDoesNotMatch, NoSuchBucket, …).
    case refused(operation: String, status: Int, code: String, message: String)
    /// The store could not be reached or kept failing (5xx, timeouts) after the retries.
    case unavailable(operation: String, reason: String)

    public var description: String {
        switch self {
        case .badConfiguration(let message):
            message
        case .refused(let operation, let status, let code, let message):
            "The photo store refused \(operation): HTTP \(status) \(code)\(message.isEmpty ? "" : " (\(message.prefix(200)))"). "
                + Self.advice(code)
        case .unavailable(let operation, let reason):
            "The photo store did not answer \(operation): \(reason). Check that it is running and reachable."
        }
    }

    private static func advice(_ code: String) -> String {
        switch code {
        case "SignatureDoesNotMatch", "InvalidAccessKeyId":
            "Check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY."
        case "AccessDenied":
            "Give these credentials s3:GetObject, s3:PutObject, s3:DeleteObject and s3:ListBucket on the bucket."
        case "NoSuchBucket":
            "Create the bucket, or fix --photo-store."
        default:
            "Check the store's configuration."
        }
    }
}
