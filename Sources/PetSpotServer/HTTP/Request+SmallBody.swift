import Hummingbird
import NIOCore

extension Request {
    /// The whole body of a small JSON request (a create, a patch): 413 when its declared length,
    /// or what arrives, passes `limit`, before more of it is read.
    func smallBody(upTo limit: Int, what: String, context: some ContinueRequestContext) async throws -> ByteBuffer {
        if let declared = headers[.contentLength].flatMap({ Int($0) }), declared > limit {
            throw APIFailure.tooLarge(limit: limit, what: what)
        }
        try await context.continueIfExpected(self)
        do {
            return try await body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw APIFailure.tooLarge(limit: limit, what: what)
        }
    }
}
