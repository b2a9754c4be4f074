/// An address as it goes into an SMTP envelope and a `To:`/`From:` header: ASCII only, one `@`,
/// no whitespace, control characters, angle brackets, quotes, commas or semicolons, at most 254
/// characters. Anything else could end the envelope command or the header it is written into
/// (`a@b.org>\r\nRCPT TO:<c@d.org`), so it is refused here, whatever checked it before.
///
/// An address with non-ASCII characters would need the relay's SMTPUTF8 and an IDNA domain;
/// such an address is refused rather than sent wrong.
public struct MailAddress: Sendable, Hashable, CustomStringConvertible {
    /// `local@domain`, as given (trimmed).
    public let address: String
    /// The name shown beside it (`PetSpot`), encoded when written; `nil` for none.
    public let displayName: String?

    public init(_ text: String, displayName: String? = nil) throws(MailError) {
        let trimmed = text.trimmingASCIIWhitespace()
        guard !trimmed.isEmpty else { throw .unusableAddress("it is empty") }
        guard trimmed.utf8.count <= 254 else { throw .unusableAddress("it is longer than 254 characters") }
        for byte in trimmed.utf8 {
            guard byte > 0x20, byte < 0x7F else {
                throw .unusableAddress(byte >= 0x80 ? "it has characters other than ASCII, which this server does not send to"
                                                    : "it has a space or a control character")
            }
            guard !Self.forbidden.contains(byte) else {
                throw .unusableAddress("it has the character \(String(UnicodeScalar(byte)))")
            }
        }
        let halves = trimmed.split(separator: "@", omittingEmptySubsequences: false)
        guard halves.count == 2, !halves[0].isEmpty, halves[1].contains("."), !halves[1].hasPrefix("."), !halves[1].hasSuffix(".") else {
            throw .unusableAddress("it is not local@domain")
        }
        address = trimmed
        let name = displayName?.trimmingASCIIWhitespace()
        self.displayName = (name?.isEmpty ?? true) ? nil : name
    }

    /// `PetSpot <alerts@pets.example.org>` or a bare address, as `--mail-from` takes it.
    public init(parsing text: String) throws(MailError) {
        let trimmed = text.trimmingASCIIWhitespace()
        if trimmed.hasSuffix(">"), let open = trimmed.lastIndex(of: "<") {
            var name = String(trimmed[..<open]).trimmingASCIIWhitespace()
            if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") { name = String(name.dropFirst().dropLast()) }
            try self.init(String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]), displayName: name)
        } else {
            try self.init(trimmed)
        }
    }

    /// The part after the `@`.
    public var domain: String { String(address.split(separator: "@").last ?? "") }

    /// The address written for a header: `=?utf-8?…?= <a@b.org>` or `a@b.org`.
    var headerValue: String {
        guard let displayName else { return address }
        return HeaderText.phrase(displayName) + " <" + address + ">"
    }

    public var description: String { address }

    /// `<`, `>`, `"`, `(`, `)`, `,`, `;`, `:`, `\`, `[`, `]`: address syntax this server never needs.
    private static let forbidden: Set<UInt8> = Set("<>\"(),;:\\[]".utf8)
}

extension String {
    /// Without spaces, tabs, CR and LF at either end.
    func trimmingASCIIWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
