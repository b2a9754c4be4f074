/// What a place's names say about it being a district of a larger place, for files without
/// feature codes (``PlaceHierarchy``): a name that joins a larger place's name with its own
/// ("Berlin-Kreuzberg", "Paris 04 Hôtel-de-Ville", "Croydon, London") or a name with a word for
/// a district ("Borough of Brooklyn", "Distrito Salamanca", "Stadtbezirk Mitte").
struct DistrictNames {
    /// Every word of every name, folded.
    let words: Set<String>
    /// One of its names has a word for a district.
    let saysDistrict: Bool
    /// The names another place's names are looked for in, as words.
    let wordLists: [[String]]
    /// The names it may be joined by in a district's name: its own and its alternate names
    /// written in Latin letters, of four letters or more, as words.
    let joinable: [[String]]

    /// Words for a part of a city in the languages GeoNames' alternate names use most.
    static let districtWords: Set<String> = [
        "arrondissement", "barrio", "bezirk", "borough", "bydel", "district", "distrito", "dzielnica", "kaupunginosa",
        "kerulet", "obvod", "okrug", "ortsteil", "quartier", "quartiere", "sector", "sectorul", "stadsdeel",
        "stadtbezirk", "stadtteil",
    ]

    /// At most this many of a place's names are looked at (a capital has hundreds).
    static let namesLooked = 60

    init(_ place: Place) {
        var words = Set<String>()
        var lists: [[String]] = []
        var joinable: [[String]] = []
        for (offset, name) in ([place.name] + place.alternateNames).prefix(Self.namesLooked).enumerated() {
            let list = Self.words(PlaceName.fold(name))
            guard !list.isEmpty else { continue }
            lists.append(list)
            words.formUnion(list)
            let letters = list.reduce(0) { $0 + $1.count }
            if letters >= 4, offset == 0 || name.unicodeScalars.allSatisfy({ $0.isASCII }) {
                joinable.append(list)
            }
        }
        self.words = words
        self.wordLists = lists
        self.joinable = joinable
        saysDistrict = !words.isDisjoint(with: Self.districtWords)
    }

    /// A folded name's words: runs of letters and digits.
    static func words(_ folded: String) -> [String] {
        folded.split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }

    /// Whether one of these names holds one of `joinable` (another place's ``joinable`` names)
    /// as whole words beside words of its own: "berlin kreuzberg" holds "berlin",
    /// "paris 04 hotel de ville" holds "paris".
    func joins(_ joinable: [[String]]) -> Bool {
        for city in joinable where words.contains(city[0]) {
            for list in wordLists where list.count > city.count {
                for start in 0...(list.count - city.count) where list[start..<(start + city.count)].elementsEqual(city) {
                    return true
                }
            }
        }
        return false
    }
}
