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
}
