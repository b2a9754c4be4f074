extension LocalDate: LosslessStringConvertible, Codable {
    /// Parses a strict `YYYY-MM-DD` string (four, two and two ASCII digits).
    ///
    /// Anything else — a timestamp, `2025-1-1`, a day that does not exist — gives `nil`.
    /// - Parameter description: The text to parse.
    public init?(_ description: String) {
        let parts = description.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3,
              parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The date as `YYYY-MM-DD`, e.g. `2025-11-18`.
    public var description: String {
        func pad(_ value: Int, to width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, to: 4))-\(pad(month, to: 2))-\(pad(day, to: 2))"
    }

    /// Decodes a `YYYY-MM-DD` string.
    /// - Throws: `DecodingError.dataCorrupted` when the string is not a valid date.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let date = LocalDate(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "Expected a date written YYYY-MM-DD, got \"\(text)\".")
        }
        self = date
    }

    /// Encodes the date as a `YYYY-MM-DD` string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension Character {
    /// Whether this is one of the ASCII digits 0–9 (and not some other script's digit).
    var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
