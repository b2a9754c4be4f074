import GRDB
import Hummingbird
import Logging

extension APIFailure {
    /// The answer for whatever a route threw: an ``APIFailure`` as it is; storage that cannot
    /// write as 503 `storage_unavailable`; Hummingbird's own 404 (405 with `Allow` when the
    /// path exists with other methods), 413 and other 4xx in the contract's shape; anything
    /// else logged with its type and answered with a bare 500, so nothing the server knows
    /// internally reaches the client.
    static func thrown(_ error: any Error, request: Request, context: some RequestContext) -> APIFailure {
        switch error {
        case let apiFailure as APIFailure:
            return apiFailure
        case StorageError.unavailable(let path, let reason):
            ServerMetrics.storageError(store: path == "the photo store" ? "photos" : "database")
            context.logger.error("storage cannot write: \(reason)", metadata: ["path": .string(path)])
            return .storageUnavailable
        case StorageError.unreachable(let what, let reason):
            ServerMetrics.storageError(store: what == "the photo store" ? "photos" : "database")
            context.logger.error("\(what) does not answer: \(reason)")
            return .storeUnreachable
        case let database as DatabaseError where unwritable.contains(database.resultCode.primaryResultCode):
            ServerMetrics.storageError(store: "database")
            context.logger.error("the database cannot write: \(database.resultCode)")
            return .storageUnavailable
        case let httpError as HTTPError where httpError.status == .notFound:
            if let methods = RouteMethods.allowed(for: request.uri.path), !methods.contains(request.method.rawValue) {
                return .methodNotAllowed(request.method.rawValue, allowed: methods)
            }
            return .noRoute(request.uri.path)
        case let httpError as HTTPError where httpError.status == .contentTooLarge:
            return .tooLarge(limit: context.maxUploadSize, what: "request body")
        case let httpError as HTTPError where httpError.status.code < 500:
            return APIFailure(status: httpError.status, error: .init(
                code: .malformedRequest, message: httpError.body ?? "The request cannot be handled: \(httpError.status.reasonPhrase)."))
        default:
            context.logger.error("request failed: \(String(describing: type(of: error))): \(error)")
            return .internalError
        }
    }

    /// SQLite results that mean the database cannot be written now, not a bug.
    private static var unwritable: [ResultCode] { [.SQLITE_FULL, .SQLITE_IOERR, .SQLITE_READONLY, .SQLITE_CANTOPEN] }
}
