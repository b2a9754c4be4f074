/// Where the gazetteer lives: beside the announcements, in the same database (SQLite or
/// PostgreSQL), so every replica reads the one imported copy.
public protocol PlaceStoring: Sendable {
    /// Replaces the whole gazetteer with `places`, in one transaction: a reader sees the old
    /// places or the new ones, never a mix.
    /// - Returns: the number of names stored (each place's name and alternate names, folded).
    @discardableResult
    func replacePlaces(_ places: [Place]) async throws -> Int

    /// How many places are loaded.
    func placeCount() async throws -> Int

    /// The places inside the box (latitude and longitude ranges, in degrees; `longitude` may
    /// wrap past ±180 as two ranges).
    func places(latitude: ClosedRange<Double>, longitude: [ClosedRange<Double>]) async throws -> [Place]

    /// The places one of whose names folds (``PlaceName/fold(_:)``) to `folded`, most populous
    /// first, at most `limit`.
    func places(named folded: String, limit: Int) async throws -> [Place]

    /// The places one of whose folded names starts with `prefix`, most populous first, at most
    /// `limit`; only those inside the box when one is given.
    func places(prefix: String, box: PlaceBox?, limit: Int) async throws -> [Place]

    /// The places with these ids (in no particular order; unknown ids are left out).
    func places(ids: [Int]) async throws -> [Place]

    /// Folded names starting with `prefix` whose length in characters is within `lengths`, each
    /// with its place, at most `limit` (for close spellings of a name no place has).
    func names(prefix: String, lengths: ClosedRange<Int>, limit: Int) async throws -> [(folded: String, place: Place)]
}

/// A latitude range and one or two longitude ranges (two when it crosses ±180°).
public struct PlaceBox: Sendable, Hashable {
    public var latitude: ClosedRange<Double>
    public var longitude: [ClosedRange<Double>]

    public init(latitude: ClosedRange<Double>, longitude: [ClosedRange<Double>]) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

extension PlaceName {
    /// The smallest string above every string that starts with `prefix`, in byte (UTF-8) order:
    /// a prefix search is `folded >= prefix AND folded < upperBound(prefix)` on an index.
    static func upperBound(_ prefix: String) -> String {
        prefix + "\u{10FFFF}"
    }
}
