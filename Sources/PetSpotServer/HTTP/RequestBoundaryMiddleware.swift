import Foundation
import Hummingbird
import Logging

/// What every request passes through, outermost: its client address is resolved once (for the
/// routes' throttles and rates, and every log line), whatever it throws becomes the contract's
/// JSON error (``APIFailure/thrown(_:request:context:)``), every answer gets the headers all
/// answers carry, and one log line is written — request id, client, method, path, status,
/// duration.
///
/// Never logged: the query string, headers (so never `Authorization`), bodies.
struct RequestBoundaryMiddleware<Context: ClientRequestContext>: RouterMiddleware {
    let clientAddress: ClientAddress

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        var context = context
        context.client = clientAddress.resolve(request, peer: context.remoteAddress)
        context.logger[metadataKey: "client"] = .string(context.client)
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            response = (try? APIFailure.thrown(error, request: request, context: context).response(from: request, context: context))
                ?? Response(status: .internalServerError)
        }
        // A browser never guesses a type we did not state.
        response.headers[.xContentTypeOptions] = "nosniff"
        if response.status.code >= 400 && Self.hasBody(request) {
            // A refused request's body may still be on its way (a 1 GB upload refused by its
            // Content-Length): close instead of reading it to the end (ConnectionGuard does).
            response.headers[.connection] = "close"
        }
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        context.logger.info(
            "\(request.method) \(request.uri.path) \(response.status.code) \(String(format: "%.1f", milliseconds)) ms",
            metadata: ["status": .stringConvertible(response.status.code)])
        return response
    }

    private static func hasBody(_ request: Request) -> Bool {
        request.headers[.transferEncoding] != nil || (request.headers[.contentLength].flatMap { Int($0) } ?? 0) > 0
    }
}
