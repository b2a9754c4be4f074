import Foundation

/// Base64 with the URL's alphabet (`-`, `_`) and no padding, for values in cookies and forms.
enum Base64URL {
    static func encode(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of `text` when it is their one canonical spelling: the last character's unused
    /// bits must be zero, so no two texts (a token and a token with its last letter changed)
    /// decode to the same bytes.
    static func decode(_ text: some StringProtocol) -> [UInt8]? {
        guard text.utf8.allSatisfy(isAlphabet) else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.utf8.count % 4 != 0 { standard += "=" }
        guard let bytes = Data(base64Encoded: standard).map([UInt8].init), encode(bytes) == String(text) else { return nil }
        return bytes
    }

    /// A new random token: 32 bytes from the system's generator, 43 characters.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return encode((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// Whether `text` is shaped like a ``randomToken()`` (43 characters of the alphabet).
    static func isToken(_ text: some StringProtocol) -> Bool {
        text.utf8.count == 43 && text.utf8.allSatisfy(isAlphabet)
    }

    static func isAlphabet(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x2D || byte == 0x5F
    }
}
