/// `GET /api/v1/places?q=NAME`: the place a name resolved to on the server's gazetteer (also
/// each suggestion of `?q=PREFIX&limit=N`, and each close spelling of an unknown name).
public struct ResolvedPlace: Codable, Hashable, Sendable {
    public var name: String
    /// The country's English name.
    public var country: String
    public var latitude: Double
    public var longitude: Double
    /// The larger place it belongs to ("Warsaw" for Mokotów), when it has one.
    public var largerPlace: String?
    /// How far it is from the `near` point the request gave, in kilometres (to 0.1 km).
    public var distanceKm: Double?

    public init(name: String, country: String, latitude: Double, longitude: Double, largerPlace: String? = nil,
                distanceKm: Double? = nil) {
        self.name = name
        self.country = country
        self.latitude = latitude
        self.longitude = longitude
        self.largerPlace = largerPlace
        self.distanceKm = distanceKm
    }

    enum CodingKeys: String, CodingKey {
        case name, country, latitude, longitude
        case largerPlace = "larger_place"
        case distanceKm = "distance_km"
    }

    /// "Mokotów, Warsaw, Poland" (or "Kraków, Poland" for a place that stands alone): what a
    /// person reads and what `GET /api/v1/places?q=` resolves to this place again.
    public var label: String { ([name] + (largerPlace.map { [$0] } ?? []) + [country]).joined(separator: ", ") }
}

/// The `near` object of a list searched with `near_place`: the place the name resolved to.
public struct NearPlace: Codable, Hashable, Sendable {
    /// "Paris, France".
    public var place: String
    public var latitude: Double
    public var longitude: Double

    public init(place: String, latitude: Double, longitude: Double) {
        self.place = place
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// What a place name gave: the place, or none and the names spelled closely that the server
/// offers instead ("did you mean …?"; never taken in its place).
public enum PlaceLookup: Sendable, Hashable {
    case found(ResolvedPlace)
    case unknown(closeSpellings: [String])
}
