import Foundation
import GRDB
import Hummingbird
import Logging

/// One log line per request — request id, client address, method, path, status, duration —
/// the one place where any error becomes a JSON answer, and the headers every answer carries
/// (`X-Content-Type-Options: nosniff`: a browser never guesses a type we did not state).
///
/// Never logged: the query string, headers (so never `Authorization`), bodies. Errors that are
/// not ``APIFailure`` are logged with their type and answered with a bare 500, so nothing the
/// server knows internally reaches the client.
struct RequestLogMiddleware<Context: RequestContext & RemoteAddressRequestContext>: RouterMiddleware {
    let clientAddress: ClientAddress

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            response = Self.response(for: error, request: request, context: context)
        }
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
            metadata: ["status": .stringConvertible(response.status.code),
                       "client": .string(clientAddress.resolve(request, peer: context.remoteAddress))])
        return response
    }

    /// SQLite results that mean the database cannot be written now, not a bug.
    private static var unwritable: [ResultCode] { [.SQLITE_FULL, .SQLITE_IOERR, .SQLITE_READONLY, .SQLITE_CANTOPEN] }

    private static func hasBody(_ request: Request) -> Bool {
        request.headers[.transferEncoding] != nil || (request.headers[.contentLength].flatMap { Int($0) } ?? 0) > 0
    }

    private static func response(for error: any Error, request: Request, context: Context) -> Response {
        let failure: APIFailure
        switch error {
        case let apiFailure as APIFailure:
            failure = apiFailure
        case StorageError.unavailable(let path, let reason):
            context.logger.error("storage cannot write: \(reason)", metadata: ["path": .string(path)])
            failure = .storageUnavailable
        case let database as DatabaseError where Self.unwritable.contains(database.resultCode.primaryResultCode):
            context.logger.error("the database cannot write: \(database.resultCode)")
            failure = .storageUnavailable
        case let httpError as HTTPError where httpError.status == .notFound:
            if let methods = RouteMethods.allowed(for: request.uri.path), !methods.contains(request.method.rawValue) {
                failure = .methodNotAllowed(request.method.rawValue, allowed: methods)
            } else {
                failure = .noRoute(request.uri.path)
            }
        case let httpError as HTTPError where httpError.status == .contentTooLarge:
            failure = .tooLarge(limit: context.maxUploadSize, what: "request body")
        case let httpError as HTTPError where httpError.status.code < 500:
            failure = APIFailure(status: httpError.status, error: .init(
                code: .malformedRequest, message: httpError.body ?? "The request cannot be handled: \(httpError.status.reasonPhrase)."))
        default:
            context.logger.error("request failed: \(String(describing: type(of: error))): \(error)")
            failure = .internalError
        }
        return (try? failure.response(from: request, context: context))
            ?? Response(status: .internalServerError)
    }
}
