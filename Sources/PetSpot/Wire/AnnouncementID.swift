import Foundation

/// An announcement's id: opaque text the server hands out, used exactly as it was received.
///
/// Servers write UUIDs in lower case and compare ids as strings, so a client must never
/// re-case or re-format one: it goes into the path and the Basic credentials as is.
/// Encoded in JSON as a bare string.
public struct AnnouncementID: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The longest id accepted, in UTF-8 bytes.
    public static let maximumLength = 128

    /// The id as the server wrote it.
    public let rawValue: String

    /// Wraps an id; `nil` when it is empty, longer than ``maximumLength`` bytes, or holds a
    /// character that cannot travel in a URL path segment or a Basic user-id (`/`, `:`,
    /// `?`, `#`, `%`, white space or a control character).
    public init?(rawValue: String) {
        guard !rawValue.isEmpty, rawValue.utf8.count <= Self.maximumLength,
              rawValue.unicodeScalars.allSatisfy(Self.isAllowed) else { return nil }
        self.rawValue = rawValue
    }

    /// A new random id: a UUID in lower case, as the reference server writes them.
    public static func random() -> AnnouncementID {
        AnnouncementID(uncheckedRawValue: UUID().uuidString.lowercased())
    }

    private init(uncheckedRawValue: String) {
        rawValue = uncheckedRawValue
    }

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = AnnouncementID(rawValue: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\"\(text.prefix(40))\" is not a usable announcement id.")
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        !"/:?#% ".unicodeScalars.contains(scalar) && !scalar.properties.isWhitespace
            && scalar.properties.generalCategory != .control
    }
}
