/// Multipart boundaries (RFC 2046 §5.1.1): 1–70 characters from a safe alphabet.
enum Boundary {
    /// RFC 2046's `bcharsnospace` plus space (never last).
    static let alphabet = Set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'()+_,-./:=? ".utf8)
    private static let randomCharacters = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
    /// 30 characters of 62: about 178 bits.
    static let randomLength = 30

    /// `----petspot-` and 30 random letters and digits from the system's CSPRNG.
    static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        let tail = (0..<randomLength).map { _ in randomCharacters.randomElement(using: &generator)! }
        return "----petspot-" + String(decoding: tail, as: UTF8.self)
    }

    static func isValid(_ boundary: String) -> Bool {
        let bytes = Array(boundary.utf8)
        return (1...70).contains(bytes.count) && bytes.allSatisfy(alphabet.contains) && bytes.last != UInt8(ascii: " ")
    }
}
