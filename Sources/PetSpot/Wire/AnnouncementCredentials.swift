import Foundation

/// The id and management password that authorise changes to one announcement, sent as
/// `Authorization: Basic base64(id:management_password)`.
///
/// The id is opaque: it is written exactly as the server returned it (servers compare ids as
/// strings, so a re-cased UUID would not match), and read back exactly as sent.
public struct AnnouncementCredentials: Hashable, Sendable {
    /// How many digits a management password has.
    public static let passwordLength = 6

    /// The announcement's id.
    public let id: AnnouncementID
    /// Its management password, six ASCII digits.
    public let managementPassword: String

    /// Creates credentials.
    public init(id: AnnouncementID, managementPassword: String) {
        self.id = id
        self.managementPassword = managementPassword
    }

    /// The `Authorization` header value, `Basic <base64(id:password)>`.
    public var authorizationHeader: String {
        "Basic " + Data("\(id.rawValue):\(managementPassword)".utf8).base64EncodedString()
    }

    /// Reads credentials from an `Authorization` header value.
    /// - Parameter authorizationHeader: e.g. `Basic RTYyMUU...`; the scheme is matched case-insensitively.
    /// - Returns: `nil` when the header is not Basic, not base64 of UTF-8 `id:password`, or
    ///   its user-id is not a usable ``AnnouncementID``.
    public init?(authorizationHeader: String) {
        let parts = authorizationHeader.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic",
              let data = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
              let text = String(data: data, encoding: .utf8),
              let colon = text.firstIndex(of: ":"),
              let id = AnnouncementID(rawValue: String(text[..<colon]))
        else { return nil }
        self.init(id: id, managementPassword: String(text[text.index(after: colon)...]))
    }

    /// Whether a password has the contract's shape: exactly six ASCII digits.
    public static func isWellFormedPassword(_ password: String) -> Bool {
        password.count == passwordLength && password.allSatisfy(\.isASCIIDigit)
    }

    /// A new random six-digit password (leading zeros kept), for the server.
    /// - Parameter generator: The source of randomness; the system's unless a test pins it.
    public static func makePassword(using generator: inout some RandomNumberGenerator) -> String {
        String((0..<passwordLength).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
    }
}
