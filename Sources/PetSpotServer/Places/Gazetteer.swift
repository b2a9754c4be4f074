import Foundation
import PetSpot

/// Place names for coordinates and coordinates for place names, from the imported gazetteer
/// (``PlaceStoring``; GeoNames' `cities500`, CC BY 4.0). Without one imported, every answer is
/// "unknown" and announcements keep showing their coordinates.
public struct Gazetteer: Sendable {
    let store: any PlaceStoring

    public init(store: any PlaceStoring) {
        self.store = store
    }

    /// How far from a point places are looked for.
    static let nearbyKm = 30.0
    /// A place this large is named beside a smaller nearest one ("Mokotów, Warsaw").
    static let largerPlacePopulation = 100_000

    /// The place `query` names: "Warszawa", "warsaw", "Mokotow", and "Paris, US" or
    /// "Mokotów, Warsaw" with a qualifier after a comma (a country's name or ISO code, or a
    /// larger place within 30 km). Ambiguous names pick the most populous place.
    /// - Returns: `nil` when no place has that name (or none fits the qualifier).
    public func resolve(_ query: String) async throws -> ResolvedPlace? {
        let parts = query.split(separator: ",", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let first = parts.first.map(PlaceName.fold), !first.isEmpty, first.count <= 200 else { return nil }
        let candidates = try await store.places(named: first, limit: 200)
        var chosen = candidates.first
        if parts.count == 2 {
            let qualifier = PlaceName.fold(parts[1])
            let country = Self.countryCode(qualifier)
            var fitting = candidates.filter { $0.countryCode == country }
            if fitting.isEmpty, !qualifier.isEmpty {
                // A larger place of that name near the candidate.
                let larger = try await store.places(named: qualifier, limit: 50)
                fitting = candidates.filter { candidate in
                    larger.contains { Place.distanceKm((candidate.latitude, candidate.longitude), ($0.latitude, $0.longitude)) <= Self.nearbyKm }
                }
            }
            chosen = fitting.first
        }
        return chosen.map { ResolvedPlace(name: $0.name, country: $0.countryName, latitude: $0.latitude, longitude: $0.longitude) }
    }

    /// Where a point is, for people: "1.2 km from Mokotów, Warsaw, Poland" — the nearest place,
    /// the nearest larger place of 100,000 people or more within 30 km, and the country ("In …"
    /// within 100 m); `nil` when no place lies within 30 km (or none is imported).
    public func describe(latitude: Double, longitude: Double) async throws -> String? {
        let nearby = try await places(around: (latitude, longitude), km: Self.nearbyKm)
        guard let nearest = nearby.first else { return nil }
        var parts = [nearest.place.name]
        // The nearest place of 100,000 people or more that is larger than the nearest one: a
        // district gets its city ("Mokotów, Warsaw"), a city stands alone.
        if let larger = nearby.first(where: {
            $0.place.population >= Self.largerPlacePopulation && $0.place.population > nearest.place.population
        }), larger.place.name != nearest.place.name {
            parts.append(larger.place.name)
        }
        parts.append(nearest.place.countryName)
        let distance = nearest.km < 0.1 ? "In" : String(format: "%.1f km from", nearest.km)
        return "\(distance) \(parts.joined(separator: ", "))"
    }

    /// The places within `km` of `point`, nearest first, with their distances.
    func places(around point: (latitude: Double, longitude: Double), km: Double) async throws -> [(place: Place, km: Double)] {
        let box = NearSearch(latitude: point.latitude, longitude: point.longitude, radiusKm: km).box
        return try await store.places(latitude: box.latitude, longitude: box.longitude)
            .map { ($0, Place.distanceKm(point, ($0.latitude, $0.longitude))) }
            .filter { $0.1 <= km }
            .sorted { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0.id < $1.0.id) }
    }

    /// The ISO code `folded` names: a two-letter code, or a country's English name.
    static func countryCode(_ folded: String) -> String? {
        if folded.count == 2, folded.allSatisfy(\.isLetter) { return folded.uppercased() }
        return countryCodes[folded]
    }

    /// Folded English country names (and a few everyday ones) to ISO codes.
    static let countryCodes: [String: String] = {
        var codes: [String: String] = [:]
        for code in Locale.Region.isoRegions.map(\.identifier) where code.count == 2 {
            codes[PlaceName.fold(Place.countryName(code))] = code
        }
        for (name, code) in ["usa": "US", "united states of america": "US", "uk": "GB", "great britain": "GB",
                             "england": "GB", "holland": "NL", "czech republic": "CZ"] {
            codes[name] = code
        }
        return codes
    }()
}
