import PetSpot

/// `?chip=NUMBER` on a list: a microchip number as people type it ("985 112 003 456 789",
/// "985-112-003-456-789", "985.112…"), matched exactly on its digits against open announcements.
enum ChipSearch {
    /// The most characters a typed number may have: 15 digits with a separator between each
    /// and room to spare (the page's box says the same with `maxlength`).
    static let maxLength = 40

    /// What the page and the API say about a value longer than ``maxLength``.
    static let tooLongMessage = "Enter at most \(maxLength) characters: a microchip number has 15 digits (older chips: 9 or 10)"

    /// Whether `raw` (as received, before any trimming) is longer than a typed number can be.
    static func isTooLong(_ raw: some StringProtocol) -> Bool {
        raw.unicodeScalars.count > maxLength
    }

    /// The digits of `typed` (spaces, dashes and dots dropped, and "+", a form's space).
    /// - Throws: 400 naming `chip` for an empty value, one longer than ``maxLength`` or one that is
    ///   not 9, 10 or 15 digits, with the form rules' reason.
    static func digits(_ typed: String) throws(APIFailure) -> String {
        if isTooLong(typed) {
            throw .malformed("chip is \(typed.unicodeScalars.count) characters long. \(tooLongMessage).", field: "chip")
        }
        let text = typed.replacingOccurrences(of: "+", with: " ")
        let compact = text.filter { !($0.isWhitespace || $0 == "-" || $0 == ".") }
        if compact.isEmpty {
            throw .malformed("chip must be a microchip number: 15 digits (older chips: 9 or 10); spaces, dashes and dots between them are fine.",
                             field: "chip")
        }
        if let issue = FormRules.microchip(text) {
            throw .malformed("chip \"\(typed.prefix(40))\" is not a microchip number. \(issue.message).", field: "chip")
        }
        return compact
    }
}
