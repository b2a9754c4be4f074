import Foundation
import PetSpot

/// Names to places: the one a name means, the ones a beginning suggests, and close spellings of
/// a name no place has.
extension Gazetteer {
    /// How far around the searcher places are looked for besides the most populous ones.
    static let localSearchKm = 100.0
    /// Candidates fetched per query.
    static let candidateLimit = 200

    /// The place `query` names: "Warszawa", "warsaw", "Mokotow", with qualifiers after commas,
    /// each a country (its name or ISO code) or a larger place within 30 km ("Paris, US",
    /// "Mokotów, Warsaw", "Brooklyn, New York City, United States"). The name may be any of a
    /// place's names, or the first words of its own name ("Praga" for Warsaw's Praga-Południe). Without `origin`, a
    /// place with exactly that name wins over one that only begins with it, and the most populous
    /// wins (``PlaceRanking/best(_:)``); with `origin`, nearer places come before more populous
    /// far ones.
    /// - Returns: `nil` when no place has that name (or none fits the qualifiers).
    public func resolve(_ query: String, near origin: (latitude: Double, longitude: Double)? = nil) async throws -> ResolvedPlace? {
        guard let (name, qualifiers) = Self.split(query) else { return nil }
        let ranking = PlaceRanking(origin: origin)
        var exact = try await store.places(named: name, limit: Self.candidateLimit)
        var beginning = try await store.places(prefix: name + " ", box: nil, limit: Self.candidateLimit)
        if let origin {
            beginning += try await store.places(prefix: name + " ", box: Self.box(around: origin, km: Self.localSearchKm),
                                                limit: Self.candidateLimit)
        }
        // By the first words of its own name ("Praga Południe"), not of a nickname among its
        // alternate names (Warsaw is also "Paris of the North").
        beginning = beginning.filter { PlaceName.fold($0.name).hasPrefix(name + " ") }
        exact = try await fitting(exact, qualifiers)
        beginning = try await fitting(beginning, qualifiers)
        let chosen = origin == nil && !exact.isEmpty ? ranking.best(exact) : ranking.best(exact + beginning)
        guard let chosen else { return nil }
        return try await resolved([chosen], origin: origin)[0]
    }

    /// The places whose names begin with `text` (type-ahead: "Moko" gives Mokotów), at most
    /// `limit`, ranked as ``resolve(_:near:)`` ranks (with `origin`, nearer first). Fewer than two
    /// letters give none.
    public func suggestions(for text: String, near origin: (latitude: Double, longitude: Double)? = nil,
                            limit: Int) async throws -> [ResolvedPlace] {
        guard let (prefix, qualifiers) = Self.split(text, allowingEmptyQualifier: true), prefix.count >= 2 else { return [] }
        var candidates = try await store.places(prefix: prefix, box: nil, limit: Self.candidateLimit)
        if let origin {
            candidates += try await store.places(prefix: prefix, box: Self.box(around: origin, km: Self.localSearchKm),
                                                 limit: Self.candidateLimit)
        }
        candidates = try await fitting(candidates, qualifiers)
        return try await resolved(Array(PlaceRanking(origin: origin).sorted(candidates).prefix(limit)), origin: origin)
    }

    /// Places whose name is within one letter's edit of `query`'s name (two for names of seven
    /// letters or more), for "did you mean Mokotów, Warsaw?" on a name no place has: best matches
    /// first, then as ``resolve(_:near:)`` ranks. Never taken in place of the name asked for.
    public func closeSpellings(of query: String, near origin: (latitude: Double, longitude: Double)? = nil,
                               limit: Int = 3) async throws -> [ResolvedPlace] {
        guard let (name, qualifiers) = Self.split(query), name.count >= 4 else { return [] }
        let letters = Array(name)
        let edits = letters.count >= 7 ? 2 : 1
        let rows = try await store.names(prefix: String(letters.prefix(2)), lengths: (letters.count - edits)...(letters.count + edits),
                                         limit: 20_000)
        var best: [Int: (edits: Int, place: Place)] = [:]
        for row in rows {
            guard let distance = SpellingDistance.distance(letters, Array(row.folded), limit: edits), distance > 0 else { continue }
            if best[row.place.id].map({ distance < $0.edits }) ?? true { best[row.place.id] = (distance, row.place) }
        }
        let fitting = Set(try await fitting(best.values.map(\.place), qualifiers).map(\.id))
        let ranking = PlaceRanking(origin: origin)
        let ordered = best.values.filter { fitting.contains($0.place.id) }
            .sorted { a, b in
                if a.edits != b.edits { return a.edits < b.edits }
                let (wa, wb) = (ranking.weight(a.place), ranking.weight(b.place))
                return wa > wb || (wa == wb && a.place.id < b.place.id)
            }
        return try await resolved(Array(ordered.prefix(limit).map(\.place)), origin: origin)
    }

    /// The places as answers: with their larger place and, given `origin`, their distance.
    func resolved(_ places: [Place], origin: (latitude: Double, longitude: Double)?) async throws -> [ResolvedPlace] {
        let larger = try await largerPlaces(of: places)
        return places.map { place in
            ResolvedPlace(name: place.name, country: place.countryName, latitude: place.latitude, longitude: place.longitude,
                          largerPlace: larger[place.id]?.name,
                          distanceKm: origin.map { (Place.distanceKm($0, place.point) * 10).rounded() / 10 })
        }
    }

    /// The folded name before the first comma and the folded qualifiers after it; `nil` for an
    /// empty name, an empty qualifier (unless allowed: a suggestion's half-typed ", "), or a
    /// query over 200 characters.
    static func split(_ query: String, allowingEmptyQualifier: Bool = false) -> (String, [String])? {
        guard query.count <= 200 else { return nil }
        let parts = query.split(separator: ",", omittingEmptySubsequences: false).map { PlaceName.fold(String($0)) }
        guard let name = parts.first, !name.isEmpty else { return nil }
        let qualifiers = Array(parts.dropFirst())
        if qualifiers.contains(where: \.isEmpty) {
            guard allowingEmptyQualifier else { return nil }
            return (name, qualifiers.filter { !$0.isEmpty })
        }
        return (name, qualifiers)
    }

    /// The candidates every qualifier fits: a country by name or code, or a larger place the
    /// candidate belongs to or lies within 30 km of.
    func fitting(_ candidates: [Place], _ qualifiers: [String]) async throws -> [Place] {
        var kept = candidates
        for qualifier in qualifiers where !kept.isEmpty {
            if let country = Self.countryCode(qualifier), kept.contains(where: { $0.countryCode == country }) || Self.countryCodes[qualifier] != nil {
                kept = kept.filter { $0.countryCode == country }
                continue
            }
            let larger = try await store.places(named: qualifier, limit: 50)
            let ids = Set(larger.map(\.id))
            kept = kept.filter { candidate in
                candidate.standing?.parentID.map(ids.contains) == true
                    || larger.contains { $0.id != candidate.id && Place.distanceKm(candidate.point, $0.point) <= Self.nearbyKm }
            }
        }
        return kept
    }
}
