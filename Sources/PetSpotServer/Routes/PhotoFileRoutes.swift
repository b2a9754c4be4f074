import HTTPTypes
import Hummingbird
import NIOCore

/// `GET`/`HEAD /photos/{key}`: the stored photo with its Content-Type, a strong ETag (its
/// SHA-256), `Cache-Control: public, max-age=31536000, immutable` (a key never changes
/// meaning), 304 for a matching `If-None-Match`, and single byte ranges (206/416).
struct PhotoFileRoutes<Context: RequestContext> {
    let services: ServerServices

    func register(on router: Router<Context>) {
        router.get("\(ServerServices.photoPathPrefix)/:key") { request, context in try await serve(request, key: context.parameters.get("key") ?? "") }
        router.head("\(ServerServices.photoPathPrefix)/:key") { request, context in
            var response = try await serve(request, key: context.parameters.get("key") ?? "")
            response.body = ResponseBody()
            return response
        }
    }

    private func serve(_ request: Request, key: String) async throws -> Response {
        guard PhotoKey.isValid(key), let data = try await services.photos.data(for: key) else {
            throw APIFailure(status: .notFound, error: .init(code: .notFound, message: "No photo is stored under \(key.prefix(80))."))
        }
        let etag = "\"\(PhotoKey.digest(of: key))\""
        var headers: HTTPFields = [
            .contentType: PhotoKey.mimeType(of: key),
            .eTag: etag,
            .cacheControl: "public, max-age=31536000, immutable",
            .acceptRanges: "bytes",
        ]
        if let match = request.headers[.ifNoneMatch], Self.matches(match, etag: etag) {
            return Response(status: .notModified, headers: headers)
        }
        let range: ByteRange
        if let ifRange = request.headers[.ifRange], ifRange != etag {
            range = .whole
        } else {
            range = ByteRange(header: request.headers[.range], length: data.count)
        }
        switch range {
        case .whole:
            headers[.contentLength] = String(data.count)
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
        case .partial(let bytes):
            headers[.contentRange] = "bytes \(bytes.lowerBound)-\(bytes.upperBound)/\(data.count)"
            headers[.contentLength] = String(bytes.count)
            return Response(status: .partialContent, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data[bytes])))
        case .unsatisfiable:
            headers[.contentRange] = "bytes */\(data.count)"
            headers[.contentLength] = "0"
            return Response(status: .rangeNotSatisfiable, headers: headers)
        }
    }

    /// `If-None-Match`: `*` or a list containing the tag (weak comparison, as RFC 9110 says).
    private static func matches(_ header: String, etag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingWhitespace()
            return tag == "*" || tag == etag || tag == "W/" + etag
        }
    }
}
