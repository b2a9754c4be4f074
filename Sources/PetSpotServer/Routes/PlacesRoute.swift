import Foundation
import Hummingbird
import PetSpot

/// `GET /api/v1/places?q=NAME[&near=LAT,LON]`: the place a name resolves to
/// (``Gazetteer/resolve(_:near:)``), so a client needs no copy of the gazetteer; with
/// `limit=N` (1–20), the places whose names begin with `q` instead, as `{"data": […]}` (type-ahead).
/// 400 without `q` (or a `q` over 200 characters), a `limit` or `near` that is not one; 404 when
/// no place has that name (with close spellings in `did_you_mean`) or the server has no
/// gazetteer; counted as a list page against the client's rate.
struct PlacesRoute<Context: ClientRequestContext> {
    let services: ServerServices

    static var path: String { "/api/v1/places" }
    static var suggestionLimit: ClosedRange<Int> { 1...20 }

    /// `{"data": […]}`: the suggestions for a beginning.
    struct Suggestions: Encodable {
        var data: [ResolvedPlace]
    }

    func register(on router: Router<Context>) {
        router.get(RouterPath(Self.path)) { request, context in
            if let wait = services.rateLimiter.take(.listPage, client: context.client, now: services.now()) {
                throw APIFailure.rateLimited("place lookups", retryAfter: wait)
            }
            let parameters = request.uri.queryParameters
            // A form sends spaces as "+" (no place name holds a plus sign).
            let query = parameters["q"].map {
                String($0).replacingOccurrences(of: "+", with: " ").trimmingCharacters(in: .whitespaces)
            } ?? ""
            guard !query.isEmpty, query.count <= 200 else {
                throw APIFailure.malformed("q must name a place (1 to 200 characters), e.g. ?q=Warsaw or ?q=Paris,%20US.", field: "q")
            }
            var origin: (latitude: Double, longitude: Double)?
            if let near = parameters["near"].map(String.init) {
                guard let point = NearQuery.point(near) else {
                    throw APIFailure.malformed("near must be LATITUDE,LONGITUDE in decimal degrees, -90…90 and -180…180 (got \"\(near.prefix(40))\").", field: "near")
                }
                origin = point
            }
            if let text = parameters["limit"] {
                guard let limit = Int(text), Self.suggestionLimit.contains(limit) else {
                    throw APIFailure.malformed("limit must be a whole number from 1 to 20.", field: "limit")
                }
                let found = try await services.gazetteer?.suggestions(for: query, near: origin, limit: limit) ?? []
                return try JSONResponse.make(status: .ok, body: Suggestions(data: found))
            }
            guard let gazetteer = services.gazetteer else {
                throw Self.unknown(query, why: "this server has no gazetteer", closeSpellings: [])
            }
            guard let place = try await gazetteer.resolve(query, near: origin) else {
                let close = try await gazetteer.closeSpellings(of: query, near: origin)
                throw Self.unknown(query, why: "no place has that name", closeSpellings: close.map(\.label))
            }
            return try JSONResponse.make(status: .ok, body: place)
        }
    }

    static func unknown(_ query: String, why: String, closeSpellings: [String]) -> APIFailure {
        let advice = closeSpellings.first.map { "Did you mean \($0)?" }
            ?? "Try the town's or city's name, optionally with its country: \"Paris, France\"."
        return APIFailure(status: .notFound, error: .init(
            code: .notFound, message: "\"\(query.prefix(80))\" is not a place this server knows (\(why)). \(advice)",
            didYouMean: closeSpellings.isEmpty ? nil : closeSpellings))
    }
}
