/// `GET /api/v1/places?q=NAME`: the place a name resolved to on the server's gazetteer.
public struct ResolvedPlace: Codable, Hashable, Sendable {
    public var name: String
    /// The country's English name.
    public var country: String
    public var latitude: Double
    public var longitude: Double

    public init(name: String, country: String, latitude: Double, longitude: Double) {
        self.name = name
        self.country = country
        self.latitude = latitude
        self.longitude = longitude
    }

    /// "Mokotów, Poland".
    public var label: String { "\(name), \(country)" }
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
