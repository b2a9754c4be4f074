import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PetSpot
import Sharing

/// `GET`/`HEAD /pets/{id}/flyer.pdf[?paper=a4|letter]` and `/pets/{id}/card.jpg`: the printable
/// flyer and the share card of a live announcement (``ShareArtwork``). Both answer with a strong
/// ETag made from what they show alone, keyed by the server (``ShareArtwork/validator(for:using:)``),
/// and a short max-age, so a shared link's preview follows an edit within minutes and a
/// conditional request costs nothing. Both count as detail reads, HEAD as much as GET; an
/// announcement whose artwork is redrawn past its budget is 429 until it recovers.
struct ShareRoutes<Context: ClientRequestContext> {
    let services: ServerServices

    /// How long a client may use a card or flyer without asking again.
    static var maxAge: Int { 300 }

    func register(on router: Router<Context>) {
        let flyer: @Sendable (Request, Context) async throws -> Response = { request, context in
            if let wait = services.rateLimiter.take(.detail, client: context.client, now: services.now()) {
                throw APIFailure.rateLimited("announcement reads", retryAfter: wait)
            }
            let paper = try Self.paper(request.uri.queryParameters["paper"].map(String.init))
            return try await answer(request, idText: context.parameters.get("id") ?? "", kind: .flyer(paper))
        }
        let card: @Sendable (Request, Context) async throws -> Response = { request, context in
            if let wait = services.rateLimiter.take(.detail, client: context.client, now: services.now()) {
                throw APIFailure.rateLimited("announcement reads", retryAfter: wait)
            }
            return try await answer(request, idText: context.parameters.get("id") ?? "", kind: .card)
        }
        for (path, handler) in [("/pets/:id/flyer.pdf", flyer), ("/pets/:id/card.jpg", card)] {
            router.get(RouterPath(path), use: handler)
            router.head(RouterPath(path)) { request, context in
                let answer = try await handler(request, context)
                return Response(status: answer.status, headers: answer.headers)
            }
        }
    }

    /// `a4` (the default) or `letter`, in any case; anything else is 400 naming the parameter.
    static func paper(_ text: String?) throws -> Paper {
        guard let text, !text.isEmpty else { return .a4 }
        guard let paper = Paper(rawValue: text.lowercased()) else {
            throw APIFailure.malformed("paper must be a4 or letter (got \"\(text.prefix(40))\").", field: "paper")
        }
        return paper
    }

    private func answer(_ request: Request, idText: String, kind: ShareArtwork.Kind) async throws -> Response {
        var lookup = AnnouncementLookup.unknown
        if let id = AnnouncementID(rawValue: idText) { lookup = try await services.store.lookup(id: id) }
        guard case .live(let stored) = lookup else {
            if case .gone = lookup {
                throw APIFailure(status: .gone, error: .init(code: .gone, message:
                    "This announcement was taken down by the person who posted it."))
            }
            throw APIFailure.notFound(idText)
        }
        let details = await services.details([stored])[0]
        let announcement = SharedAnnouncement(details, pageURL: "\(services.publicURL.current)/pets/\(stored.id.rawValue)")
        let made: ShareArtwork.Made
        do {
            made = try await services.shareArtwork.make(kind, of: announcement, id: stored.id.rawValue, photoKey: stored.photoKey,
                                                        now: services.now()) { [services] in
                guard let key = stored.photoKey else { return nil }
                return try await Self.photo(key, services: services)
            }
        } catch let exhausted as ShareArtwork.RedrawsExhausted {
            throw APIFailure(status: .tooManyRequests, error: .init(code: .rateLimited, message:
                "This announcement's flyer and card were redrawn too often in a short time. Try again in \(exhausted.retryAfter) seconds."),
                headers: [.retryAfter: String(exhausted.retryAfter)])
        }
        let etag = ShareArtwork.validator(for: made.key, using: services.keyring.derivedKey(for: .shareValidators))
        var headers: HTTPFields = [
            .eTag: etag,
            .cacheControl: "public, max-age=\(Self.maxAge)",
            HTTPField.Name("X-Content-Type-Options")!: "nosniff",
        ]
        if let match = request.headers[.ifNoneMatch], match.split(separator: ",").contains(where: {
            let tag = $0.trimmingCharacters(in: .whitespaces)
            return tag == etag || tag == "W/" + etag || tag == "*"
        }) {
            return Response(status: .notModified, headers: headers)
        }
        switch kind {
        case .card:
            headers[.contentType] = "image/jpeg"
        case .flyer(let paper):
            headers[.contentType] = "application/pdf"
            headers[.contentDisposition] = "inline; filename=\"petspot-\(stored.id.rawValue)-\(paper.rawValue).pdf\""
        }
        headers[.contentLength] = String(made.bytes.count)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: made.bytes)))
    }

    /// The photo as a flyer embeds it: the 1200 px JPEG variant, or the stored photo when it is
    /// not wider than that.
    static func photo(_ key: String, services: ServerServices) async throws -> [UInt8]? {
        let variant = PhotoVariant(size: .width(1200), format: .jpeg)
        var reader = try await services.variants.open(digest: PhotoKey.digest(of: key), variant: variant)
        if reader == nil { reader = try await services.photos.open(key) }
        guard let reader else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(reader.size)
        try await reader.read(0..<reader.size, chunkSize: 256 * 1024) { bytes += Array(buffer: $0) }
        return bytes
    }
}
