import Crypto
import Foundation
import NIOPosix
import PetSpot
import PhotoPipeline
import Sharing
import Synchronization

/// Flyers and share cards, made on first request and kept under a key derived from everything
/// they show (the recipe, the fields, the photo's digest), so an edit or a new photo makes a new
/// one and an unchanged announcement is never drawn twice while it stays in the cache.
///
/// Kept in memory, most recently used first, up to `capacityBytes`: a card is ~60 KB and a flyer
/// ~100 KB to 1 MB, both made again in tens of milliseconds, so they are not worth a place in the
/// photo store (whose sweep would have to learn them). At most two are drawn at once; the same
/// one asked for by many at once is drawn once.
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
    /// Drawn by this process (for tests).
    let madeCount = Atomic<Int>(0)

    init(capacityBytes: Int = 48 << 20) {
        self.capacityBytes = capacityBytes
    }

    /// The key of `kind` for `announcement` with the photo stored under `photoKey`.
    static func key(_ kind: Kind, of announcement: SharedAnnouncement, photoKey: String?) -> String {
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

    /// The card or flyer, from the cache or drawn now; `photo` loads the photo's JPEG when it is
    /// needed (`nil`: none).
    func make(_ kind: Kind, of announcement: SharedAnnouncement, photoKey: String?,
              photo: @escaping @Sendable () async throws -> [UInt8]?) async throws -> Made {
        let key = Self.key(kind, of: announcement, photoKey: photoKey)
        if let bytes = cache.withLock({ $0.get(key) }) { return Made(bytes: bytes, key: key) }
        let slots = self.slots
        let bytes = try await flights.run(key) { [self] in
            try await slots.withSlot {
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
