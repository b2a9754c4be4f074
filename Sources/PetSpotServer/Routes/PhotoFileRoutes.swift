import HTTPTypes
import Hummingbird
import NIOCore
import PhotoPipeline

/// `GET`/`HEAD /photos/{key}` and `/photos/{digest}/{variant}` (``PhotoVariant``: `w320`, `w640`,
/// `w1200` or `full`, `.jpg` or `.webp`): the bytes with their Content-Type, a strong ETag,
/// `Cache-Control: public, max-age=31536000, immutable` (a key never changes meaning), 304 for
/// a matching `If-None-Match`, and single byte ranges (206/416). A variant is made on its first
/// request. A client that sends `Accept: image/webp` gets the WebP of a JPEG photo at the
/// photo's own URL when it is the smaller file (`Vary: Accept`): made within the variants'
/// butteraugli target, a WebP is not always smaller than the JPEG, and a larger one would cost
/// the client bytes for nothing.
struct PhotoFileRoutes<Context: RequestContext> {
    let services: ServerServices

    /// Bytes read from the store per chunk of a download: the most one download holds in memory.
    static var chunkSize: Int { 64 * 1024 }

    /// One representation to send.
    private struct Representation {
        var reader: any StoredPhotoReader
        var contentType: String
        var etag: String
        /// Whether another representation exists at the same URL for another `Accept`.
        var negotiated: Bool
    }

    func register(on router: Router<Context>) {
        let prefix = ServerServices.photoPathPrefix
        router.get("\(prefix)/:key") { request, context in
            try await serve(request, try await photo(context.parameters.get("key") ?? "", accept: request.headers[.accept]), withBody: true)
        }
        router.head("\(prefix)/:key") { request, context in
            try await serve(request, try await photo(context.parameters.get("key") ?? "", accept: request.headers[.accept]), withBody: false)
        }
        router.get("\(prefix)/:key/:variant") { request, context in
            try await serve(request, try await variant(context.parameters.get("key") ?? "", context.parameters.get("variant") ?? ""), withBody: true)
        }
        router.head("\(prefix)/:key/:variant") { request, context in
            try await serve(request, try await variant(context.parameters.get("key") ?? "", context.parameters.get("variant") ?? ""), withBody: false)
        }
    }

    /// The stored photo, or its full-size WebP for a client that asks for WebP when that is smaller.
    private func photo(_ key: String, accept: String?) async throws -> Representation {
        let negotiable = key.hasSuffix(".jpg")
        guard PhotoKey.isValid(key), let stored = try await services.photos.open(key) else {
            throw APIFailure(status: .notFound, error: .init(code: .notFound, message: "No photo is stored under \(key.prefix(80))."))
        }
        if negotiable, Self.acceptsWebP(accept) {
            do {
                let full = PhotoVariant(size: .full, format: .webp)
                if let reader = try await services.variants.open(digest: PhotoKey.digest(of: key), variant: full), reader.size < stored.size {
                    return Representation(reader: reader, contentType: full.format.mimeType,
                                          etag: "\"\(full.storeKey(digest: PhotoKey.digest(of: key)))\"", negotiated: true)
                }
            } catch is PhotoError {
                // A photo the encoder cannot turn into WebP is still served as it is stored.
            } catch is PhotoVariants.Busy {
                // Too many sizes being made: the JPEG as it is stored is a fine answer too.
            }
        }
        return Representation(reader: stored, contentType: PhotoKey.mimeType(of: key), etag: "\"\(PhotoKey.digest(of: key))\"",
                              negotiated: negotiable)
    }

    /// A variant of the photo with `digest`, made now when this is its first request.
    private func variant(_ digest: String, _ name: String) async throws -> Representation {
        guard PhotoKey.isDigest(Substring(digest)), let variant = PhotoVariant(name: name) else {
            throw APIFailure(status: .notFound, error: .init(code: .notFound, message:
                "No such photo variant: the sizes are \(PhotoVariant.widths.map { "w\($0)" }.joined(separator: ", ")) and full, as .jpg or .webp."))
        }
        let reader: (any StoredPhotoReader)?
        do {
            reader = try await services.variants.open(digest: Substring(digest), variant: variant)
        } catch is PhotoError {
            // The stored photo was made by this pipeline: failing to resize it is ours to fix.
            throw APIFailure.internalError
        } catch is PhotoVariants.Busy {
            throw APIFailure.variantsBusy(retryAfter: 2)
        }
        guard let reader else {
            throw APIFailure(status: .notFound, error: .init(code: .notFound, message:
                "No \(variant.name) for \(digest.prefix(80)): either no photo has that digest, or it is not wider than \(variant.name.prefix { $0 != "." }) "
                + "(an announcement's photoVariants lists the sizes its photo has)."))
        }
        let etag = variant.isSourceItself ? "\"\(digest)\"" : "\"\(variant.storeKey(digest: Substring(digest)))\""
        return Representation(reader: reader, contentType: variant.format.mimeType, etag: etag, negotiated: false)
    }

    /// The answer for one representation: headers from its length, and a body streamed from the
    /// store chunk by chunk as the client reads it (none for `HEAD`, whose `Content-Length` is
    /// still the one `GET` would send).
    private func serve(_ request: Request, _ representation: Representation, withBody: Bool) async throws -> Response {
        let reader = representation.reader, etag = representation.etag
        var headers: HTTPFields = [
            .contentType: representation.contentType,
            .eTag: etag,
            .cacheControl: "public, max-age=31536000, immutable",
            .acceptRanges: "bytes",
            // A photo is shown, never run: nothing in it may load, script or frame anything.
            .contentSecurityPolicy: "default-src 'none'; sandbox",
        ]
        if representation.negotiated { headers[.vary] = "Accept" }
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

    /// Whether `Accept` names `image/webp` itself (as browsers that decode WebP send; `*/*` or
    /// `image/*` alone do not say the client decodes it) with a quality above zero.
    static func acceptsWebP(_ header: String?) -> Bool {
        guard let header else { return false }
        return header.split(separator: ",").contains { range in
            let parameters = range.split(separator: ";").map { $0.trimmingWhitespace().lowercased() }
            guard parameters.first == "image/webp" else { return false }
            let quality = parameters.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return quality > 0
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
