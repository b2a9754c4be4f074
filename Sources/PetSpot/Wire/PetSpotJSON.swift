import Foundation

/// The JSON settings every PetSpot module uses, so the client, the server and the tests
/// produce and accept the same bytes.
///
/// Output is stable: keys sorted, slashes not escaped, no whitespace (unless pretty-printed),
/// instants as ISO 8601 (`2025-11-18T10:15:00Z`). Keys are spelled by each type's `CodingKeys`
/// (snake_case for the create/response bodies, camelCase for ``PetDetails``), never by a key
/// strategy. Decoding accepts ISO 8601 instants with or without fractional seconds.
public enum PetSpotJSON {
    /// A new encoder with the shared settings.
    /// - Parameter prettyPrinted: Indent the output for people to read (still sorted).
    public static func makeEncoder(prettyPrinted: Bool = false) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = prettyPrinted
            ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
            : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    /// A new decoder with the shared settings.
    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = parseInstant(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "Expected an ISO 8601 timestamp, got \"\(text)\".")
            }
            return date
        }
        return decoder
    }

    /// Encodes a value with ``makeEncoder(prettyPrinted:)``.
    /// - Throws: `EncodingError` when the value cannot be encoded (e.g. a NaN coordinate).
    public static func encode(_ value: some Encodable) throws -> Data {
        try makeEncoder().encode(value)
    }

    /// Decodes a value with ``makeDecoder()``.
    /// - Throws: `DecodingError` when the data does not have the expected shape.
    public static func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        try makeDecoder().decode(type, from: data)
    }

    /// Parses `2025-11-18T10:15:00Z` or `2025-11-18T10:15:00.123Z` (any UTC offset).
    static func parseInstant(_ text: String) -> Date? {
        let plain = Date.ISO8601FormatStyle()
        let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        return (try? plain.parse(text)) ?? (try? fractional.parse(text))
    }
}
