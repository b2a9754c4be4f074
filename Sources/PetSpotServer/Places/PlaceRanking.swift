/// The order in which places of the same name (or the same beginning) are offered: by size
/// without a position; with one, nearer places before more populous far ones.
struct PlaceRanking: Sendable {
    /// Where the person searching is (the near search's point, the report's area, the
    /// announcement being edited), when known.
    var origin: (latitude: Double, longitude: Double)?

    /// A place's weight seen from `origin`: its people over the square of its distance plus
    /// 10 km. A place ten times as populous must be within about three times the distance to
    /// come first: Warsaw's Praga (180,000 people, 5 km) before Prague (1.2 million, 520 km) for a
    /// search made in Warsaw, Paris before Paris, Texas for one made in Berlin.
    func weight(_ place: Place) -> Double {
        guard let origin else { return Double(place.population) }
        let km: Double = Place.distanceKm(origin, place.point) + 10
        let people = Double(max(place.population, 100))
        return people / (km * km)
    }

    /// `places` best first, ties by id.
    func sorted(_ places: [Place]) -> [Place] {
        var seen = Set<Int>()
        let weighed: [(place: Place, weight: Double)] = places.filter { seen.insert($0.id).inserted }.map { ($0, weight($0)) }
        return weighed.sorted { a, b in
            a.weight > b.weight || (a.weight == b.weight && a.place.id < b.place.id)
        }.map(\.place)
    }

    /// The one place a name means: the first of ``sorted(_:)``, except that without a position a
    /// section yields to a place of the same name that is not one and has at least half its
    /// people ("Salamanca, Spain" is the city, not Madrid's district of 147,000; "Brooklyn" is
    /// still New York City's).
    func best(_ places: [Place]) -> Place? {
        let ordered = sorted(places)
        guard let first = ordered.first else { return nil }
        guard origin == nil, first.standing?.isSection == true else { return first }
        return ordered.first { $0.standing?.isSection != true && 2 * $0.population >= first.population } ?? first
    }
}
