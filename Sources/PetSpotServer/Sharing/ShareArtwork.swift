import Crypto
import Foundation
import NIOPosix
import PetSpot
import PhotoPipeline
import Sharing
import Synchronization

/// Flyers and share cards, made on first request and kept under a key derived from everything
/// they show and nothing else (the recipe, the fields the kind draws, the photo's digest): an edit
/// of what one shows or a new photo makes a new one, an edit of what it does not (a card and the
/// phone number) keeps it, and an unchanged announcement is never drawn twice while it stays in
/// the cache.
///
/// Kept in memory, most recently used first, up to `capacityBytes`: a card is ~60 KB and a flyer
/// ~100 KB to 1 MB, both made again in tens of milliseconds, so they are not worth a place in the
/// photo store (whose sweep would have to learn them). At most two are drawn at once; the same
/// one asked for by many at once is drawn once; one announcement's are drawn at most as often as
/// its ``RedrawBudget`` allows.
final class ShareArtwork: Sendable {
    enum Kind: Hashable, Sendable, Codable {
        case card
        case flyer(Paper)
    }

    /// What was made, and the strong ETag it is served with (its key).
    struct Made: Sendable {
        let bytes: [UInt8]
        let key: String
    }

    /// Bumped whenever a card or flyer would come out differently for the same announcement.
    static let recipe = 1

    let capacityBytes: Int
    private let cache = Mutex(LeastRecentlyUsed())
    private let flights = SingleFlight<String, [UInt8]>()
    private let slots = AsyncSemaphore(limit: 2)
    private let redraws: RedrawBudget
    /// Drawn by this process (for tests).
    let madeCount = Atomic<Int>(0)

    init(capacityBytes: Int = 48 << 20, redraws: RedrawBudget = RedrawBudget()) {
        self.capacityBytes = capacityBytes
        self.redraws = redraws
    }

    /// One announcement's cards and flyers were drawn as often as its budget allows; the next may
    /// be drawn in `retryAfter` seconds.
    struct RedrawsExhausted: Error {
        let retryAfter: Int
    }

    /// The key of `kind` for `announcement` with the photo stored under `photoKey`: a digest of
    /// what that kind shows (a card: ``SharedAnnouncement/shownOnCard``), never of the rest.
    static func key(_ kind: Kind, of announcement: SharedAnnouncement, photoKey: String?) -> String {
        let announcement = kind == .card ? announcement.shownOnCard : announcement
        struct Inputs: Encodable {
            let recipe: Int
            let kind: Kind
            let announcement: SharedAnnouncement
            let photo: String?
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = (try? encoder.encode(Inputs(recipe: recipe, kind: kind, announcement: announcement, photo: photoKey))) ?? Data()
        return SHA256.hash(data: data).prefix(16).map { String(format: "%02x", $0) }.joined()
    }

    /// The entity tag a response carries for `key`: a MAC under the server's validator key, so a
    /// tag cannot be tested against guesses of what it was made from (the key digests only what
    /// the response shows; the MAC keeps even that from being guessed offline).
    static func validator(for key: String, using secret: SymmetricKey) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data(key.utf8), using: secret)
        return "\"" + mac.prefix(16).map { String(format: "%02x", $0) }.joined() + "\""
    }

    /// The card or flyer of announcement `id`, from the cache or drawn now; `photo` loads the
    /// photo's JPEG when it is needed (`nil`: none).
    /// - Throws: ``RedrawsExhausted`` when it must be drawn and `id`'s budget is spent.
    func make(_ kind: Kind, of announcement: SharedAnnouncement, id: String, photoKey: String?, now: Date = Date(),
              photo: @escaping @Sendable () async throws -> [UInt8]?) async throws -> Made {
        let key = Self.key(kind, of: announcement, photoKey: photoKey)
        if let bytes = cache.withLock({ $0.get(key) }) { return Made(bytes: bytes, key: key) }
        let slots = self.slots, redraws = self.redraws
        let bytes = try await flights.run(key) { [self] in
            if let wait = redraws.take(id, now: now) { throw RedrawsExhausted(retryAfter: wait) }
            return try await slots.withSlot {
                let jpeg = try await photo()
                let bytes = try await NIOThreadPool.singleton.runIfActive { () throws -> [UInt8] in
                    switch kind {
                    case .card: try ShareCard.render(announcement, photo: jpeg)
                    case .flyer(let paper): try Flyer.render(announcement, photo: jpeg, paper: paper)
                    }
                }
                madeCount.add(1, ordering: .relaxed)
                cache.withLock { $0.put(key, bytes, capacity: capacityBytes) }
                return bytes
            }
        }
        return Made(bytes: bytes, key: key)
    }
}

/// Byte-bounded, least recently used out first.
private struct LeastRecentlyUsed {
    private var entries: [String: (bytes: [UInt8], used: Int)] = [:]
    private var clock = 0
    private var total = 0

    mutating func get(_ key: String) -> [UInt8]? {
        guard let entry = entries[key] else { return nil }
        clock += 1
        entries[key] = (entry.bytes, clock)
        return entry.bytes
    }

    mutating func put(_ key: String, _ bytes: [UInt8], capacity: Int) {
        guard bytes.count <= capacity else { return }
        clock += 1
        if let old = entries.updateValue((bytes, clock), forKey: key) { total -= old.bytes.count }
        total += bytes.count
        while total > capacity, let oldest = entries.min(by: { $0.value.used < $1.value.used }) {
            total -= oldest.value.bytes.count
            entries[oldest.key] = nil
        }
    }
}

extension SharedAnnouncement {
    /// What the page `pageURL` shows of `details`, worded as the pages word it.
    init(_ details: PetDetails, pageURL: String) {
        let shown = PetDetailsPresentation(details, timeZone: TimeZone(identifier: "UTC")!)
        let status: Status = switch details.status {
        case .active: .missing
        case .found: .found
        case .closed: details.closedOutcome == .reunited ? .reunited : .closed
        }
        self.init(status: status, species: details.species.displayName, petName: PetPage.givenName(details),
                  breed: details.breed?.shownText,
                  sex: details.gender == .unknown ? nil : details.gender == .male ? "Male" : "Female",
                  age: details.approximateAge == nil ? nil : shown.age, since: shown.lastSeenDate,
                  place: PetPage.placeText(details), reward: details.reward?.shownText,
                  description: details.description.shownText, phone: details.phone.shownText, pageURL: pageURL)
    }
}
