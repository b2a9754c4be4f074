#if canImport(Glibc)
import Glibc
#endif
import Crypto
import Foundation

/// Credentials for AWS Signature Version 4. Never printed: `description` shows the access key
/// id only, so a log line or an error that mentions them cannot leak the secret.
public struct AWSCredentials: Sendable, CustomStringConvertible {
    public var accessKeyID: String
    public var secretAccessKey: String
    /// From STS (temporary credentials); sent and signed as `X-Amz-Security-Token`.
    public var sessionToken: String?

    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    /// From `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN`; `nil` unless
    /// both of the first two are set.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> AWSCredentials? {
        guard let id = environment["AWS_ACCESS_KEY_ID"], !id.isEmpty,
              let secret = environment["AWS_SECRET_ACCESS_KEY"], !secret.isEmpty else { return nil }
        return AWSCredentials(accessKeyID: id, secretAccessKey: secret,
                              sessionToken: environment["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 })
    }

    public var description: String { "AWS credentials \(accessKeyID) (secret hidden)" }
}

/// AWS Signature Version 4 (`AWS4-HMAC-SHA256`) for one region and service, as AWS's signer test
/// suite defines it (`Tests/PetSpotServerTests/Storage/SigV4SuiteTests.swift` checks every case).
///
/// The steps are separate so each can be checked: the canonical request, the string to sign,
/// the signature, the `Authorization` header.
public struct SigV4Signer: Sendable {
    public var credentials: AWSCredentials
    public var region: String
    public var service: String
    /// Whether the path is normalised (`.`/`..` and repeated slashes removed) before signing:
    /// generic AWS services do; S3 signs the path exactly as sent.
    public var normalizesPath: Bool

    public init(credentials: AWSCredentials, region: String, service: String, normalizesPath: Bool? = nil) {
        self.credentials = credentials
        self.region = region
        self.service = service
        self.normalizesPath = normalizesPath ?? (service != "s3")
    }

    /// One request to sign: the path as it is (not percent-encoded), query items unencoded,
    /// every header that is sent.
    public struct Request: Sendable {
        public var method: String
        public var path: String
        public var query: [(name: String, value: String)]
        public var headers: [(name: String, value: String)]
        /// Lower-case hex SHA-256 of the body (or `UNSIGNED-PAYLOAD` where the service allows it).
        public var payloadHash: String

        public init(method: String, path: String, query: [(name: String, value: String)] = [],
                    headers: [(name: String, value: String)], payloadHash: String) {
            self.method = method
            self.path = path
            self.query = query
            self.headers = headers
            self.payloadHash = payloadHash
        }
    }

    /// The hex SHA-256 of the empty body.
    public static let emptyPayloadHash = hexSHA256([])

    public static func hexSHA256(_ bytes: some DataProtocol) -> String {
        SHA256.hash(data: bytes).hex
    }

    // MARK: the steps

    /// The canonical request and the `SignedHeaders` list.
    public func canonicalRequest(_ request: Request) -> (text: String, signedHeaders: String) {
        let path = normalizesPath ? Self.normalise(request.path) : request.path
        let canonicalPath = path.split(separator: "/", omittingEmptySubsequences: false)
            .map { Self.encode(String($0)) }.joined(separator: "/")
        let encoded: [(name: String, value: String)] = request.query.map { (Self.encode($0.name), Self.encode($0.value)) }
        let sorted = encoded.sorted { left, right in left.name == right.name ? left.value < right.value : left.name < right.name }
        let query = sorted.map { item in item.name + "=" + item.value }.joined(separator: "&")
        var headers: [String: [String]] = [:]
        for (name, value) in request.headers {
            headers[name.lowercased(), default: []].append(Self.trimHeaderValue(value))
        }
        let names = headers.keys.sorted()
        let canonicalHeaders = names.map { "\($0):\(headers[$0]!.joined(separator: ","))\n" }.joined()
        let signedHeaders = names.joined(separator: ";")
        let pathLine: String = canonicalPath.isEmpty ? "/" : canonicalPath
        let lines: [String] = [request.method, pathLine, query, canonicalHeaders, signedHeaders, request.payloadHash]
        let text = lines.joined(separator: "\n")
        return (text, signedHeaders)
    }

    /// `yyyyMMdd/region/service/aws4_request`.
    public func scope(at date: Date) -> String {
        "\(Self.day(date))/\(region)/\(service)/aws4_request"
    }

    public func stringToSign(canonicalRequest: String, at date: Date) -> String {
        ["AWS4-HMAC-SHA256", Self.timestamp(date), scope(at: date),
         Self.hexSHA256(Array(canonicalRequest.utf8))].joined(separator: "\n")
    }

    public func signature(stringToSign: String, at date: Date) -> String {
        var key = SymmetricKey(data: Array("AWS4\(credentials.secretAccessKey)".utf8))
        for part in [Self.day(date), region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Array(part.utf8), using: key)))
        }
        return HMAC<SHA256>.authenticationCode(for: Array(stringToSign.utf8), using: key).hex
    }

    /// The `Authorization` header for `request` (which must already carry `x-amz-date`, and
    /// `x-amz-security-token` when the credentials have one).
    public func authorization(for request: Request, at date: Date) -> String {
        let (canonical, signedHeaders) = canonicalRequest(request)
        let signature = signature(stringToSign: stringToSign(canonicalRequest: canonical, at: date), at: date)
        return "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope(at: date)), "
            + "SignedHeaders=\(signedHeaders), Signature=\(signature)"
    }

    /// The headers to add to a request sent now: `x-amz-date`, `x-amz-content-sha256` (S3),
    /// `x-amz-security-token` when there is one, and `Authorization`.
    public func signedHeaders(for request: Request, at date: Date = Date()) -> [(name: String, value: String)] {
        var added: [(name: String, value: String)] = [("x-amz-date", Self.timestamp(date))]
        if service == "s3" { added.append(("x-amz-content-sha256", request.payloadHash)) }
        if let token = credentials.sessionToken { added.append(("x-amz-security-token", token)) }
        var signing = request
        signing.headers += added
        return added + [("Authorization", authorization(for: signing, at: date))]
    }

    // MARK: pieces

    /// RFC 3986 percent-encoding of everything but the unreserved characters, as SigV4 wants.
    public static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    /// Removes `.` and `..` segments and repeated slashes, keeping a trailing slash.
    static func normalise(_ path: String) -> String {
        var segments: [Substring] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch segment {
            case ".": continue
            case "..": _ = segments.popLast()
            default: segments.append(segment)
            }
        }
        let trailing = path.hasSuffix("/") && !segments.isEmpty ? "/" : ""
        return "/" + segments.joined(separator: "/") + trailing
    }

    /// Leading and trailing space removed, inner runs of spaces (and folded lines) made one
    /// space or, for folded lines, a comma — as the test suite's multi-line case shows.
    static func trimHeaderValue(_ value: String) -> String {
        let lines = value.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).joined(separator: " ") }
        return lines.joined(separator: ",")
    }

    static func timestamp(_ date: Date) -> String {
        let t = utc(date)
        return String(format: "%04d%02d%02dT%02d%02d%02dZ", t.tm_year + 1900, t.tm_mon + 1, t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec)
    }

    static func day(_ date: Date) -> String {
        let t = utc(date)
        return String(format: "%04d%02d%02d", t.tm_year + 1900, t.tm_mon + 1, t.tm_mday)
    }

    /// The calendar fields of `date` in UTC (no formatter to build for every signed request).
    private static func utc(_ date: Date) -> tm {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var fields = tm()
        gmtime_r(&seconds, &fields)
        return fields
    }
}
