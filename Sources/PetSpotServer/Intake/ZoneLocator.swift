import Foundation

/// The time zone at a point on Earth, from tzdata's `zone1970.tab`: each zone there has one
/// representative place, and the zone of the nearest such place is taken; the zone's own rules
/// (tzdata, through `TimeZone`) then give the offset on the day, summer time included.
///
/// Nearest-place is exact well inside a zone and can be wrong within a few tens of kilometres of
/// a border between zones (tzdata holds no zone boundaries), which moves a date only for reports
/// made within an hour or two of midnight there.
struct ZoneLocator: Sendable {
    struct Place: Sendable {
        let latitude: Double
        let longitude: Double
        let identifier: String
    }

    let places: [Place]

    /// The table Debian's tzdata installs.
    static let defaultTable = "/usr/share/zoneinfo/zone1970.tab"

    /// The zones of the table at `path`, read once per process; empty (every point then in UTC)
    /// when the table cannot be read.
    static let shared = ZoneLocator(path: defaultTable)

    init(path: String) {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        places = text.split(separator: "\n").compactMap(Self.place)
    }

    /// The zone of the nearest representative place; UTC without a table.
    func timeZone(latitude: Double, longitude: Double) -> TimeZone {
        let nearest = places.min { a, b in
            Self.distance(latitude, longitude, a.latitude, a.longitude) < Self.distance(latitude, longitude, b.latitude, b.longitude)
        }
        return nearest.flatMap { TimeZone(identifier: $0.identifier) } ?? .gmt
    }

    /// The central angle between two points (haversine), enough to compare distances.
    private static func distance(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let radians = Double.pi / 180
        let dLat = (lat2 - lat1) * radians, dLon = (lon2 - lon1) * radians
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * radians) * cos(lat2 * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * atan2(a.squareRoot(), (1 - a).squareRoot())
    }

    /// One line of the table: `codes <TAB> ±DDMM[SS]±DDDMM[SS] <TAB> zone [<TAB> comment]`.
    private static func place(_ line: Substring) -> Place? {
        guard !line.hasPrefix("#") else { return nil }
        let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard columns.count >= 3 else { return nil }
        let coordinates = columns[1]
        guard let split = coordinates.dropFirst().firstIndex(where: { $0 == "+" || $0 == "-" }),
              let latitude = degrees(coordinates[..<split], degreeDigits: 2),
              let longitude = degrees(coordinates[split...], degreeDigits: 3) else { return nil }
        return Place(latitude: latitude, longitude: longitude, identifier: String(columns[2]))
    }

    /// `+4230` → 42.5, `-0733540` → −7.59…
    private static func degrees(_ text: Substring, degreeDigits: Int) -> Double? {
        guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
        let digits = Array(text.dropFirst())
        guard digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
              digits.count == degreeDigits + 2 || digits.count == degreeDigits + 4 else { return nil }
        func number(_ range: Range<Int>) -> Double { Double(String(digits[range])) ?? 0 }
        var value = number(0..<degreeDigits) + number(degreeDigits..<degreeDigits + 2) / 60
        if digits.count == degreeDigits + 4 { value += number(degreeDigits + 2..<degreeDigits + 4) / 3600 }
        return sign == "-" ? -value : value
    }
}
