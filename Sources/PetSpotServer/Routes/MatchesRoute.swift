import Foundation
import Hummingbird
import PetSpot

/// `GET /api/v1/announcements/{id}/matches`: the possible matches of a live announcement
/// (``PossibleMatches``), best first, without contact details (each links to its page); an empty
/// list for a closed one. 404 unknown, 410 taken down; counted as a list page.
struct MatchesRoute<Context: ClientRequestContext> {
    let services: ServerServices

    func register(on router: Router<Context>) {
        router.get("/api/v1/announcements/:id/matches") { _, context in
            if let wait = services.rateLimiter.take(.listPage, client: context.client, now: services.now()) {
                throw APIFailure.rateLimited("match lists", retryAfter: wait)
            }
            let target = try await OwnerCheck(services: services).live(context.parameters.get("id") ?? "")
            let matches = try await PossibleMatches(services: services, signatures: services.signatures)
                .matches(for: target, logger: context.logger)
            return try JSONResponse.make(status: .ok, body: PossibleMatchList(data: await Self.items(matches, services: services)))
        }
    }

    static func items(_ matches: [PossibleMatches.Match], services: ServerServices) async -> [PossibleMatch] {
        let details = await services.details(matches.map(\.announcement))
        let base = services.publicURL.current
        return zip(matches, details).map { match, details in
            PossibleMatch(id: details.id, status: details.status, species: details.species, breed: details.breed,
                 location: details.location, lastSeenDate: details.lastSeenDate, photoUrl: details.photoUrl,
                 url: "\(base)/pets/\(details.id.rawValue)", distanceKm: (match.distanceKm * 100).rounded() / 100,
                 daysApart: match.daysApart, score: match.score, reasons: match.reasons)
        }
    }
}
