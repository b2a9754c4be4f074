/// What a person typed for "where": nothing, a pair of coordinates as a map app copies them
/// (`52.2297, 21.0122`, `52.2297 21.0122`, `52.2297°, 21.0122°`), or the name of a place to look
/// up (`Mokotów`, `Paris, France`).
///
/// Only the shape is decided here; whether the numbers are in range is ``FormRules/latitude(_:)``
/// and ``FormRules/longitude(_:)``, and whether a name is a known place is the gazetteer's.
public enum LocationText: Hashable, Sendable {
    /// Nothing but white space.
    case empty
    /// Two decimal numbers: latitude first, then longitude.
    case coordinates(latitude: Double, longitude: Double)
    /// Anything else, trimmed.
    case placeName(String)

    /// Reads what was typed.
    public init(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            self = .empty
            return
        }
        let parts = trimmed.replacingOccurrences(of: "°", with: "")
            .split { $0 == "," || $0 == ";" || $0.isWhitespace }
        if parts.count == 2, let latitude = Self.number(parts[0]), let longitude = Self.number(parts[1]) {
            self = .coordinates(latitude: latitude, longitude: longitude)
        } else {
            self = .placeName(trimmed)
        }
    }

    /// A decimal number written with ASCII digits, an optional sign and one optional point
    /// (`Double("nan")` or `"1e400"` are not coordinates anyone types).
    private static func number(_ text: Substring) -> Double? {
        let digits = text.drop { $0 == "+" || $0 == "-" }
        guard text.count - digits.count <= 1, !digits.isEmpty,
              digits.allSatisfy({ $0.isASCIIDigit || $0 == "." }), digits.filter({ $0 == "." }).count <= 1,
              digits.contains(where: \.isASCIIDigit) else { return nil }
        return Double(text)
    }
}
