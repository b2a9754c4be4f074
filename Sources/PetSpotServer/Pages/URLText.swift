import Foundation

/// Building URLs for attributes: every piece percent-encoded, so a value cannot leave its place
/// in the URL (the result is still escaped as text when interpolated into ``HTML``).
enum URLText {
    /// Characters left as they are in a query value or a path segment.
    private static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".unicodeScalars)

    static func encode(_ value: String) -> String {
        var out = ""
        for byte in value.utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80, unreserved.contains(scalar) {
                out.unicodeScalars.append(scalar)
            } else {
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    /// `?a=1&b=2` from the pairs whose value is not `nil`; `""` when none is.
    static func query(_ pairs: [(String, String?)]) -> String {
        let parts = pairs.compactMap { name, value in value.map { "\(name)=\(encode($0))" } }
        return parts.isEmpty ? "" : "?" + parts.joined(separator: "&")
    }

    /// `tel:` with only the digits and a leading `+` of `phone`.
    static func tel(_ phone: String) -> String {
        let compact = phone.filter { !$0.isWhitespace }
        let kept = compact.enumerated().filter { index, character in character.isASCII && (character.isNumber || (character == "+" && index == 0)) }
        return "tel:" + String(kept.map(\.element))
    }

    /// `mailto:` with the address percent-encoded, so it can only ever be one address.
    static func mailto(_ email: String) -> String {
        "mailto:" + encode(email).replacingOccurrences(of: "%40", with: "@")
    }
}
