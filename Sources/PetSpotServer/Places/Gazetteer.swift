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

    /// Where a point is, for people: "1.2 km from Ursynów, Warsaw, Poland" — the nearest place,
    /// the larger place it belongs to (``PlaceHierarchy``: its city for a district, never a
    /// neighbouring district) and the country ("In …" within 100 m); `nil` when no place lies
    /// within 30 km (or none is imported).
    public func describe(latitude: Double, longitude: Double) async throws -> String? {
        let nearby = try await places(around: (latitude, longitude), km: Self.nearbyKm)
        guard let nearest = nearby.first else { return nil }
        let larger = try await largerPlaces(of: [nearest.place], known: nearby.map(\.place))[nearest.place.id]
        let distance = nearest.km < 0.1 ? "In" : String(format: "%.1f km from", nearest.km)
        return "\(distance) \(Self.label(nearest.place, larger: larger))"
    }

    /// "Ursynów, Warsaw, Poland": the place, the larger place it belongs to, the country.
    static func label(_ place: Place, larger: Place?) -> String {
        ([place.name] + (larger.map { [$0.name] } ?? []) + [place.countryName]).joined(separator: ", ")
    }

    /// The larger place each of `places` belongs to, by id (absent when it stands alone): the
    /// one the import worked out, or — for a gazetteer imported before that was kept — worked
    /// out now among the places around it (by distance and size only: the names are not loaded).
    func largerPlaces(of places: [Place], known: [Place] = []) async throws -> [Int: Place] {
        var byID = Dictionary(known.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var parents: [Int: Int] = [:]
        for place in places {
            if let standing = place.standing {
                if let parent = standing.parentID { parents[place.id] = parent }
                continue
            }
            let around = try await self.places(around: place.point, km: PlaceHierarchy.searchKm).map(\.place)
            for neighbour in around { byID[neighbour.id] = neighbour }
            let ranked = PlaceHierarchy.ranked(around)
            if let parent = ranked.first(where: { $0.id == place.id })?.standing?.parentID { parents[place.id] = parent }
        }
        let missing = Set(parents.values).subtracting(byID.keys)
        for place in try await store.places(ids: Array(missing)) { byID[place.id] = place }
        return parents.compactMapValues { byID[$0] }
    }

    /// The places within `km` of `point`, nearest first, with their distances.
    func places(around point: (latitude: Double, longitude: Double), km: Double) async throws -> [(place: Place, km: Double)] {
        let box = Self.box(around: point, km: km)
        return try await store.places(latitude: box.latitude, longitude: box.longitude)
            .map { ($0, Place.distanceKm(point, ($0.latitude, $0.longitude))) }
            .filter { $0.1 <= km }
            .sorted { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0.id < $1.0.id) }
    }

    static func box(around point: (latitude: Double, longitude: Double), km: Double) -> PlaceBox {
        let box = NearSearch(latitude: point.latitude, longitude: point.longitude, radiusKm: km).box
        return PlaceBox(latitude: box.latitude, longitude: box.longitude)
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
