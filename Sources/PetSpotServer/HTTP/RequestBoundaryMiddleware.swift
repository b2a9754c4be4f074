import Foundation
import Hummingbird
import HTTPTypes
import Logging

/// What every request passes through, outermost: its client address is resolved once (for the
/// routes' throttles and rates, and every log line), whatever it throws becomes the contract's
/// JSON error (``APIFailure/thrown(_:request:context:)``), every answer gets the headers all
/// answers carry, and one log line is written — request id, client, method, path, status,
/// duration.
///
/// Never logged: the query string, headers (so never `Authorization`), bodies, the token of a
/// link in mail (``MailLinkPaths``: it alone unsubscribes or confirms).
struct RequestBoundaryMiddleware<Context: ClientRequestContext>: RouterMiddleware {
    let clientAddress: ClientAddress

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        var context = context
        context.client = clientAddress.resolve(request, peer: context.remoteAddress)
        let requestID = Self.requestID(request, fromTrustedProxy: clientAddress.isTrustedProxy(context.remoteAddress),
                                       assigned: context.logger[metadataKey: "hb.request.id"].map { "\($0)" })
        context.logger[metadataKey: "request_id"] = .string(requestID)
        context.logger[metadataKey: "client"] = .string(context.client)
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            let failure = APIFailure.thrown(error, request: request, context: context)
            if failure.status == .notFound, PageLayout.isPagePath(request.uri.path) {
                // A mistyped page address is a page too, not the API's JSON.
                response = PageLayout.failure(APIFailure(status: .notFound, error: .init(code: .notFound, message:
                    "There is no page at this address. It may have been mistyped, or the link is incomplete.")))
            } else {
                response = (try? failure.response(from: request, context: context)) ?? Response(status: .internalServerError)
            }
        }
        // A browser never guesses a type we did not state.
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[Self.requestIDField] = requestID
        if response.status.code >= 400 && Self.hasBody(request) {
            // A refused request's body may still be on its way (a 1 GB upload refused by its
            // Content-Length): close instead of reading it to the end (ConnectionGuard does).
            response.headers[.connection] = "close"
        }
        let path = MailLinkPaths.withoutToken(request.uri.path)
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        context.logger.info(
            "\(request.method) \(path) \(response.status.code) \(String(format: "%.1f", milliseconds)) ms",
            metadata: ["status": .stringConvertible(response.status.code), "method": .string(request.method.rawValue),
                       "path": .string(String(path.prefix(200))), "duration_ms": .string(String(format: "%.1f", milliseconds))])
        ServerMetrics.request(route: context.endpointPath ?? "unmatched", method: request.method.rawValue,
                              status: response.status.code, duration: elapsed)
        return response
    }

    static var requestIDField: HTTPField.Name { .xRequestID }

    /// The id of this request in every log line and in `X-Request-ID`: the one a trusted proxy
    /// sent (nginx's `$request_id`) when it is a short token, else the one Hummingbird assigned
    /// (`assigned`), else a new random one — a client cannot choose the id its requests are
    /// logged under.
    static func requestID(_ request: Request, fromTrustedProxy: Bool, assigned: String?) -> String {
        if fromTrustedProxy, let sent = request.headers[requestIDField], (1...64).contains(sent.utf8.count),
           sent.utf8.allSatisfy({ $0 == 0x2D || $0 == 0x5F || $0 == 0x2E || (0x30...0x39).contains($0)
               || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) {
            return sent
        }
        if let assigned, !assigned.isEmpty { return assigned }
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in String(generator.next() as UInt64, radix: 16).leftPadded(to: 16) }.joined()
    }

    fileprivate static func hasBody(_ request: Request) -> Bool {
        request.headers[.transferEncoding] != nil || (request.headers[.contentLength].flatMap { Int($0) } ?? 0) > 0
    }
}

private extension String {
    func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}

extension HTTPField.Name {
    static let xRequestID = HTTPField.Name("X-Request-ID")!
}
