/// What a flyer and a share card show of one announcement: plain text already worded for people
/// (the server's pages word it the same way), and the photo as stored (an upright JPEG).
public struct SharedAnnouncement: Sendable, Hashable, Codable {
    public enum Status: String, Sendable, Hashable, Codable {
        case missing, found, reunited
        /// Withdrawn by its owner.
        case closed
    }

    public var status: Status
    /// "Dog", "Cat", …
    public var species: String
    public var petName: String?
    public var breed: String?
    /// "Male", "Female"; `nil` when unknown.
    public var sex: String?
    /// "3 years"
    public var age: String?
    /// "18 November 2025": the day the pet was last seen (missing) or found.
    public var since: String
    /// Where: a place name, or the coordinates written out.
    public var place: String
    public var reward: String?
    public var description: String?
    /// `nil` for a reunited or closed announcement: nobody should call about it any more.
    public var phone: String?
    /// The pet's public page, printed under the QR code.
    public var pageURL: String

    public init(status: Status, species: String, petName: String? = nil, breed: String? = nil, sex: String? = nil,
                age: String? = nil, since: String, place: String, reward: String? = nil, description: String? = nil,
                phone: String?, pageURL: String) {
        self.status = status
        self.species = species
        self.petName = petName
        self.breed = breed
        self.sex = sex
        self.age = age
        self.since = since
        self.place = place
        self.reward = reward
        self.description = description
        self.phone = status == .reunited || status == .closed ? nil : phone
        self.pageURL = pageURL
    }

    /// Only what a share card draws (the status, the species, the place and the date; the photo is
    /// given beside it): the card is drawn from this, and whatever identifies a card (a cache key,
    /// a validator) is made from it, so nothing the card does not show can be learnt from one.
    public var shownOnCard: SharedAnnouncement {
        SharedAnnouncement(status: status, species: species, since: since, place: place, phone: nil, pageURL: "")
    }

    /// "MISSING DOG", "FOUND CAT", "REUNITED".
    public var headline: String {
        switch status {
        case .missing: "MISSING \(species.uppercased())"
        case .found: "FOUND \(species.uppercased())"
        case .reunited: "REUNITED"
        case .closed: "CLOSED"
        }
    }

    /// The status word alone: "MISSING", "FOUND", "REUNITED".
    public var statusWord: String { status.rawValue.uppercased() }

    /// "Labrador · Male · 3 years", without what is unknown.
    var traits: String {
        [breed, sex, age].compactMap { $0?.trimmedLine }.filter { !$0.isEmpty }.joined(separator: " · ")
    }

    /// "Missing since 18 November 2025", "Found on …", and for a closed one "Since …".
    var when: String {
        switch status {
        case .missing: "Missing since \(since)"
        case .found: "Found on \(since)"
        case .reunited, .closed: "Since \(since)"
        }
    }

    /// RGB of the status: red for missing, blue for found, green for reunited.
    var colour: (red: Double, green: Double, blue: Double) {
        switch status {
        case .missing: (0.74, 0.09, 0.11)
        case .found: (0.05, 0.32, 0.62)
        case .reunited: (0.13, 0.48, 0.22)
        case .closed: (0.35, 0.35, 0.35)
        }
    }
}

extension String {
    /// One line: control and bidirectional-override characters dropped (a name cannot reorder the
    /// text around it), runs of white space made one space, trimmed.
    var trimmedLine: String {
        String(String.UnicodeScalarView(unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }
            .filter { !Self.directionOverrides.contains($0.value) }))
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Paragraphs kept, each trimmed as ``trimmedLine``.
    var trimmedParagraphs: String {
        split(separator: "\n", omittingEmptySubsequences: true).map { String($0).trimmedLine }
            .filter { !$0.isEmpty }.joined(separator: "\n")
    }

    /// LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI.
    static let directionOverrides: Set<UInt32> = [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069]
}
