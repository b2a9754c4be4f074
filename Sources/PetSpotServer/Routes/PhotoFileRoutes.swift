import HTTPTypes
import Hummingbird
import NIOCore

/// `GET`/`HEAD /photos/{key}`: the stored photo with its Content-Type, a strong ETag (its
/// SHA-256), `Cache-Control: public, max-age=31536000, immutable` (a key never changes
/// meaning), 304 for a matching `If-None-Match`, and single byte ranges (206/416).
struct PhotoFileRoutes<Context: RequestContext> {
    let services: ServerServices

    /// Bytes read from the store per chunk of a download: the most one download holds in memory.
    static var chunkSize: Int { 64 * 1024 }

    func register(on router: Router<Context>) {
        router.get("\(ServerServices.photoPathPrefix)/:key") { request, context in
            try await serve(request, key: context.parameters.get("key") ?? "", withBody: true)
        }
        router.head("\(ServerServices.photoPathPrefix)/:key") { request, context in
            try await serve(request, key: context.parameters.get("key") ?? "", withBody: false)
        }
    }

    /// The answer for `key`: headers from the stored file's length, and a body streamed from the
    /// store chunk by chunk as the client reads it (none for `HEAD`, whose `Content-Length` is
    /// still the one `GET` would send).
    private func serve(_ request: Request, key: String, withBody: Bool) async throws -> Response {
        guard PhotoKey.isValid(key), let reader = try await services.photos.open(key) else {
            throw APIFailure(status: .notFound, error: .init(code: .notFound, message: "No photo is stored under \(key.prefix(80))."))
        }
        let etag = "\"\(PhotoKey.digest(of: key))\""
        var headers: HTTPFields = [
            .contentType: PhotoKey.mimeType(of: key),
            .eTag: etag,
            .cacheControl: "public, max-age=31536000, immutable",
            .acceptRanges: "bytes",
            // A photo is shown, never run: nothing in it may load, script or frame anything.
            .contentSecurityPolicy: "default-src 'none'; sandbox",
        ]
        if let match = request.headers[.ifNoneMatch], Self.matches(match, etag: etag) {
            return Response(status: .notModified, headers: headers)
        }
        let range: ByteRange
        if let ifRange = request.headers[.ifRange], ifRange != etag {
            range = .whole
        } else {
            range = ByteRange(header: request.headers[.range], length: reader.size)
        }
        let status: HTTPResponse.Status
        let bytes: Range<Int>
        switch range {
        case .whole:
            (status, bytes) = (.ok, 0..<reader.size)
        case .partial(let closed):
            (status, bytes) = (.partialContent, closed.lowerBound..<(closed.upperBound + 1))
            headers[.contentRange] = "bytes \(closed.lowerBound)-\(closed.upperBound)/\(reader.size)"
        case .unsatisfiable:
            headers[.contentRange] = "bytes */\(reader.size)"
            headers[.contentLength] = "0"
            return Response(status: .rangeNotSatisfiable, headers: headers)
        }
        headers[.contentLength] = String(bytes.count)
        guard withBody else { return Response(status: status, headers: headers) }
        let body = ResponseBody(contentLength: bytes.count) { writer in
            // `write` waits while the connection cannot take more, so a client that does not
            // read holds one chunk, not the photo.
            try await reader.read(bytes, chunkSize: Self.chunkSize) { chunk in try await writer.write(chunk) }
            try await writer.finish(nil)
        }
        return Response(status: status, headers: headers, body: body)
    }

    /// `If-None-Match`: `*` or a list containing the tag (weak comparison, as RFC 9110 says).
    private static func matches(_ header: String, etag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingWhitespace()
            return tag == "*" || tag == etag || tag == "W/" + etag
        }
    }
}
