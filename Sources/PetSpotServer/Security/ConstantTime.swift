/// Comparisons of secrets whose time does not depend on where the two differ, so an attacker
/// timing the answers learns nothing of a MAC or a sealed password byte by byte.
enum ConstantTime {
    /// Whether `a` and `b` hold the same bytes (their lengths are not secret).
    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
