import Foundation
import Hummingbird
import PetSpot

/// `GET /api/v1/places?q=NAME`: the place a name resolves to (``Gazetteer/resolve(_:)``), as
/// `{"name", "country", "latitude", "longitude"}`, so a client needs no copy of the gazetteer.
/// 400 without `q` (or a `q` over 200 characters), 404 when no place has that name or the server
/// has no gazetteer; counted as a list page against the client's rate.
struct PlacesRoute<Context: ClientRequestContext> {
    let services: ServerServices

    static var path: String { "/api/v1/places" }

    func register(on router: Router<Context>) {
        router.get(RouterPath(Self.path)) { request, context in
            if let wait = services.rateLimiter.take(.listPage, client: context.client, now: services.now()) {
                throw APIFailure.rateLimited("place lookups", retryAfter: wait)
            }
            // A form sends spaces as "+" (no place name holds a plus sign).
            let query = request.uri.queryParameters["q"].map {
                String($0).replacingOccurrences(of: "+", with: " ").trimmingCharacters(in: .whitespaces)
            } ?? ""
            guard !query.isEmpty, query.count <= 200 else {
                throw APIFailure.malformed("q must name a place (1 to 200 characters), e.g. ?q=Warsaw or ?q=Paris,%20US.", field: "q")
            }
            guard let gazetteer = services.gazetteer, let place = try await gazetteer.resolve(query) else {
                let why = services.gazetteer == nil ? "this server has no gazetteer" : "no place has that name"
                throw APIFailure(status: .notFound, error: .init(code: .notFound, message:
                    "\"\(query.prefix(80))\" is not a place this server knows (\(why)). Try the town's or city's name, optionally with its country: \"Paris, France\"."))
            }
            return try JSONResponse.make(status: .ok, body: place)
        }
    }
}
