import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// The five S3 calls the photo store needs — PUT, GET (whole or a range), HEAD, DELETE and
/// ListObjectsV2 — over AsyncHTTPClient, each signed with SigV4. Every call here is idempotent
/// (keys are content-addressed), so 5xx answers and transport failures are retried with
/// backoff; 4xx answers are not.
final class S3Client: Sendable {
    let location: S3Location
    let signer: SigV4Signer
    private let http: HTTPClient
    private let timeout: TimeAmount
    private let attempts: Int
    private let logger: Logger

    init(location: S3Location, credentials: AWSCredentials, http: HTTPClient = .shared,
         timeout: TimeAmount = .seconds(30), attempts: Int = 3, logger: Logger) {
        self.location = location
        signer = SigV4Signer(credentials: credentials, region: location.region, service: "s3")
        self.http = http
        self.timeout = timeout
        self.attempts = max(1, attempts)
        self.logger = logger
    }

    // MARK: calls

    func put(_ key: String, body: [UInt8], contentType: String) async throws(S3Error) {
        _ = try await send("PUT", path: location.path(for: key), body: body,
                           headers: [("Content-Type", contentType)], operation: "storing \(key)")
    }

    /// The object's bytes (the whole object, or `range`), or `nil` when there is none.
    func get(_ key: String, range: Range<Int>? = nil) async throws(S3Error) -> [UInt8]? {
        var headers: [(String, String)] = []
        if let range { headers.append(("Range", "bytes=\(range.lowerBound)-\(range.upperBound - 1)")) }
        return try await send("GET", path: location.path(for: key), headers: headers, operation: "reading \(key)",
                              missingIsNil: true)?.body
    }

    /// The object's size, or `nil` when there is none.
    func head(_ key: String) async throws(S3Error) -> (size: Int, lastModified: Date?)? {
        guard let reply = try await send("HEAD", path: location.path(for: key), operation: "checking \(key)", missingIsNil: true) else {
            return nil
        }
        let size = reply.headers.first(name: "Content-Length").flatMap(Int.init) ?? 0
        return (size, reply.headers.first(name: "Last-Modified").flatMap(Self.httpDate))
    }

    func delete(_ key: String) async throws(S3Error) {
        _ = try await send("DELETE", path: location.path(for: key), operation: "removing \(key)", missingIsNil: true)
    }

    /// One page of the keys under the location's prefix (the prefix taken off), and the token
    /// for the next page.
    func list(continuation: String? = nil, maxKeys: Int = 1000) async throws(S3Error) -> (objects: [(key: String, lastModified: Date?)], next: String?) {
        // The prefix is sent up to its first "/" and the rest is filtered here: moto 5.2 checks
        // signatures of a query holding "/" (%2F, as SigV4 and AWS want it) wrongly, botocore's
        // own included. Our keys never hold "/", so only the prefix could.
        let serverPrefix = String(location.prefix.prefix { $0 != "/" })
        var query: [(name: String, value: String)] = [("list-type", "2"), ("max-keys", String(maxKeys)), ("prefix", serverPrefix)]
        if let continuation { query.append(("continuation-token", continuation)) }
        guard let reply = try await send("GET", path: "/\(location.bucket)", query: query, operation: "listing the photos") else {
            return ([], nil)
        }
        let page = S3XMLAnswer.parse(reply.body)
        let objects = page.objects.compactMap { object -> (key: String, lastModified: Date?)? in
            guard object.key.hasPrefix(location.prefix) else { return nil }
            return (String(object.key.dropFirst(location.prefix.count)), object.lastModified)
        }
        return (objects, page.truncated ? page.nextToken : nil)
    }

    // MARK: transport

    struct Reply {
        var status: Int
        var headers: HTTPHeaders
        var body: [UInt8]
    }

    /// What one try gave: the answer, or a problem another try may mend.
    private enum Outcome<T> {
        case done(T)
        case retry(String)
    }

    /// Runs `call` up to `attempts` times, 100 ms, 400 ms, 1.6 s apart, while it fails in a way
    /// another try may mend (a transport error, a 5xx answer); a refusal (``S3Error``) ends it.
    private func retrying<T>(_ operation: String, _ call: () async throws -> Outcome<T>) async throws(S3Error) -> T {
        var lastProblem = ""
        for attempt in 1...attempts {
            if attempt > 1 { try? await Task.sleep(for: .milliseconds(100 * (1 << (2 * (attempt - 2))))) }
            do {
                switch try await call() {
                case .done(let value): return value
                case .retry(let problem): lastProblem = problem
                }
            } catch let refusal as S3Error {
                throw refusal
            } catch {
                lastProblem = Self.describe(error)
            }
            logger.warning("photo store: \(operation) failed (attempt \(attempt) of \(attempts)): \(lastProblem)")
        }
        throw .unavailable(operation: operation, reason: lastProblem)
    }

    /// An answer that is not a success: a 5xx is worth another try; anything else is the
    /// store's refusal, with its code and message.
    private func failure<T>(_ operation: String, status: Int, body: [UInt8]) throws(S3Error) -> Outcome<T> {
        let answer = S3XMLAnswer.parse(body)
        if (500..<600).contains(status) { return .retry("HTTP \(status) \(answer.code ?? "")") }
        let code = answer.code ?? (status == 404 ? "NoSuchKey" : "")
        logger.error("photo store: \(operation) refused: HTTP \(status) \(code)")
        throw .refused(operation: operation, status: status, code: code, message: answer.message ?? "")
    }

    /// Sends one signed request, retrying what may succeed on a second try.
    /// - Returns: the reply, or `nil` for a 404 when `missingIsNil`.
    private func send(_ method: String, path: String, query: [(name: String, value: String)] = [], body: [UInt8] = [],
                      headers: [(String, String)] = [], operation: String, missingIsNil: Bool = false) async throws(S3Error) -> Reply? {
        try await retrying(operation) { () async throws -> Outcome<Reply?> in
            let request = signedRequest(method, path: path, query: query, body: body, headers: headers)
            let response = try await http.execute(request, timeout: timeout)
            let bytes = method == "HEAD" ? ByteBuffer() : try await response.body.collect(upTo: 64 << 20)
            let reply = Reply(status: Int(response.status.code), headers: response.headers, body: Array(buffer: bytes))
            switch reply.status {
            case 200..<300: return .done(reply)
            case 404 where missingIsNil: return .done(nil)
            default: return try failure(operation, status: reply.status, body: reply.body)
            }
        }
    }

    /// Streams `range` of an object to `consume` as it arrives: the body is read no faster than
    /// `consume` returns, so a slow reader holds what one read brings, not the object. Retried
    /// until the answer starts; once bytes have been handed on, a failure is final.
    func stream(_ key: String, range: Range<Int>, into consume: (ByteBuffer) async throws -> Void) async throws {
        let operation = "reading \(key)"
        let response = try await retrying(operation) { () async throws -> Outcome<HTTPClientResponse> in
            let request = signedRequest("GET", path: location.path(for: key), query: [], body: [],
                                        headers: [("Range", "bytes=\(range.lowerBound)-\(range.upperBound - 1)")])
            let response = try await http.execute(request, timeout: timeout)
            let status = Int(response.status.code)
            if status == 206 || status == 200 { return .done(response) }
            return try failure(operation, status: status, body: Array(buffer: try await response.body.collect(upTo: 1 << 20)))
        }
        var received = 0
        for try await chunk in response.body {
            received += chunk.readableBytes
            try await consume(chunk)
        }
        guard received == range.count else {
            throw S3Error.unavailable(operation: operation, reason: "the answer ended after \(received) of \(range.count) bytes")
        }
    }

    /// A request to `path` signed for now, its URL encoded exactly as it was signed.
    private func signedRequest(_ method: String, path: String, query: [(name: String, value: String)], body: [UInt8],
                               headers: [(String, String)]) -> HTTPClientRequest {
        let encodedPath = path.split(separator: "/", omittingEmptySubsequences: false)
            .map { SigV4Signer.encode(String($0)) }.joined(separator: "/")
        let encodedQuery = query.map { SigV4Signer.encode($0.name) + "=" + SigV4Signer.encode($0.value) }.joined(separator: "&")
        var request = HTTPClientRequest(url: location.endpoint + encodedPath + (encodedQuery.isEmpty ? "" : "?" + encodedQuery))
        request.method = HTTPMethod(rawValue: method)
        var all = headers + [("Host", location.host)]
        if !body.isEmpty || method == "PUT" { all.append(("Content-Length", String(body.count))) }
        let toSign = SigV4Signer.Request(method: method, path: path, query: query, headers: all.map { ($0.0, $0.1) },
                                         payloadHash: SigV4Signer.hexSHA256(body))
        for (name, value) in all + signer.signedHeaders(for: toSign).map({ ($0.name, $0.value) }) {
            request.headers.add(name: name, value: value)
        }
        if method == "PUT" { request.body = .bytes(ByteBuffer(bytes: body)) }
        return request
    }

    private static func describe(_ error: any Error) -> String {
        if let clientError = error as? HTTPClientError, clientError == .deadlineExceeded || clientError == .readTimeout {
            return "no answer in time"
        }
        return String(describing: error).prefix(200).description
    }

    private static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }
}
