import Foundation
import PetSpot

/// Everything that can stop a report from reaching the server, with the product's two
/// messages for people (``userMessage``) and the real cause for `--verbose` and `--json`
/// (``detail``). Never holds a management password or an Authorization header.
public enum SubmissionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server could not be reached: refused, unreachable, name not found, connect timeout.
    case offline(String)
    /// The connection broke or stalled after it was made.
    case network(String)
    /// The server answered with an error status (and its error body when it sent one).
    case http(status: Int, error: APIError?, step: Step, retryAfter: Double?)
    /// The server's answer is not what the contract says.
    case invalidResponse(String)
    /// The photo to upload is not where the draft says (cache cleared by hand, file removed).
    case photoUnavailable(path: String, reason: String)
    /// The submission journal cannot be read or written.
    case journal(path: String, reason: String)
    /// The configuration is unusable (bad server URL).
    case configuration(String)

    /// Which request failed.
    public enum Step: String, Sendable, Codable {
        case create, photo, read
        /// A change by the owner: an edit, closing, reopening, a photo removed, a take-down.
        case change
    }

    /// What a person sees: "No connection…" when offline, the reason itself for a setting they
    /// can fix (a bad server URL), "Something went wrong…" otherwise.
    public var userMessage: String {
        switch self {
        case .offline: return SubmissionMessage.offline
        case .configuration(let message): return message
        case .http(413, let answer, .photo, _):
            // We know exactly what happened: say it, with the server's limit when it gave one.
            guard let limit = answer?.maxPhotoBytes else { return "The photo is larger than this server accepts." }
            return "The photo is larger than this server accepts (at most \(Self.bytesText(limit))), even prepared again as small as a photo can usefully be."
        default: return SubmissionMessage.generic
        }
    }

    /// `2,000 bytes`, `464,135 bytes`.
    public static func bytesText(_ count: Int) -> String {
        "\(count.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))) bytes"
    }

    /// Whether the same request may succeed if tried again (connection errors, timeouts,
    /// 408, 429, 5xx).
    public var isRetryable: Bool {
        switch self {
        case .offline, .network: true
        // 501 and 505 say the server does not do this at all: asking again cannot help.
        case .http(let status, _, _, _): status == 408 || status == 429 || ((500...599).contains(status) && status != 501 && status != 505)
        case .invalidResponse, .photoUnavailable, .journal, .configuration: false
        }
    }

    /// Whether a create request that failed this way may still have made the announcement on
    /// that server: the connection broke after the request went out, a PetSpot server (its
    /// error body follows the contract) or a gateway in front of one (502–504) failed, or a
    /// success came back unreadable. `false` when nothing answered, when the server refused the
    /// request, or when what answered with an error is not a PetSpot server.
    public var mayHaveReachedServer: Bool {
        switch self {
        case .network, .invalidResponse: true
        case .http(let status, let error, _, _): (502...504).contains(status) || ((500...599).contains(status) && error != nil)
        case .offline, .photoUnavailable, .journal, .configuration: false
        }
    }

    /// Whether the answer came from something that is not a PetSpot server: an error status
    /// without the contract's error body (an HTML 501, a proxy's page), or a success whose body
    /// is not the contract's. Gateway failures (502–504) are left out: a PetSpot server may be
    /// behind them, down for a moment.
    public var isForeignAnswer: Bool {
        switch self {
        case .http(let status, let error, _, _): error == nil && !(502...504).contains(status)
        case .invalidResponse: true
        default: false
        }
    }

    /// Whether the server was never reached.
    public var isOffline: Bool {
        if case .offline = self { return true }
        return false
    }

    /// The HTTP status, when the server answered.
    public var status: Int? {
        if case .http(let status, _, _, _) = self { return status }
        return nil
    }

    /// The real cause, for `--verbose`, `--json` and logs.
    public var detail: String {
        switch self {
        case .offline(let cause): "The server cannot be reached: \(cause)."
        case .network(let cause): "The connection failed: \(cause)."
        case .http(let status, let error, let step, _):
            Self.explain(status: status, step: step) + (error.map { " Server said: \($0.code.rawValue): \($0.message)" + ($0.field.map { " (field \($0))" } ?? "") } ?? "")
        case .invalidResponse(let what): "The server's answer does not follow the contract: \(what)."
        case .photoUnavailable(let path, let reason):
            "The photo \(path) cannot be read (\(reason)). Attach it again with `petspot report … --photo FILE`."
        case .journal(let path, let reason): "The submission journal \(path) cannot be used: \(reason)."
        case .configuration(let what): what
        }
    }

    public var description: String { detail }

    /// The field the server named in a 400, if any.
    public var field: String? {
        if case .http(_, let error, _, _) = self { return error?.field }
        return nil
    }

    private static func explain(status: Int, step: Step) -> String {
        switch (status, step) {
        case (400, _): "HTTP 400: the server refused a value."
        case (401, .photo): "HTTP 401: the server did not accept the announcement's id and management password for the photo upload."
        case (404, .photo): "HTTP 404: the server does not know this announcement (deleted, or another server)."
        case (413, .photo): "HTTP 413: the photo is larger than the server accepts; prepare a smaller one (`--max-bytes`)."
        case (415, .photo): "HTTP 415: the server does not accept this photo's type (it takes JPEG, PNG, WebP, HEIC or AVIF)."
        case (401, .change): "HTTP 401: the server did not accept the announcement's id and management password."
        case (404, _): "HTTP 404: the server does not know this announcement."
        case (410, _): "HTTP 410: the announcement was taken down by its owner."
        case (412, .change): "HTTP 412: the announcement changed since it was read (another device?); read it again and retry."
        case (429, _): "HTTP 429: the server asks to slow down."
        case (500...599, _): "HTTP \(status): the server failed."
        default: "HTTP \(status) on the \(step.rawValue) step."
        }
    }
}
