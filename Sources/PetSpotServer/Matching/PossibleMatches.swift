import Foundation
import Logging
import NIOPosix
import PetSpot
import PhotoPipeline

/// Possible matches between a missing pet and found ones (or a found pet and missing ones):
/// the open reports of the other kind, of the same species, within 25 km, whose dates fit (found
/// on or after the day it was lost, at most 60 days later) and whose sexes do not contradict,
/// ranked by a score, best first, at most 10, each with the reasons for its score.
///
/// The score starts at 100 and:
/// - loses 2 points per km between the two places (25 km: −50);
/// - loses 0.5 point per day between the dates (60 days: −30);
/// - gains 10 points per breed word the two share ("labrador", "retriever"; at most +20);
/// - gains 5 when both have a photo;
/// - compares the photos' colour signatures (``ColourSignature``: the dominant colours of the
///   salient region): ΔE under 15 (alike) +15, 15–30 nothing, over 30 (plainly different) −25.
struct PossibleMatches: Sendable {
    let services: ServerServices
    let signatures: ColourSignatures

    static let radiusKm = 25.0
    static let maximumDays = 60
    static let limit = 10

    struct Match: Sendable {
        var announcement: StoredAnnouncement
        var distanceKm: Double
        var daysApart: Int
        var score: Double
        var reasons: [String]
    }

    func matches(for target: StoredAnnouncement, logger: Logger) async throws -> [Match] {
        let request = target.request
        guard !target.isClosed, PetLocation(latitude: request.locationLatitude, longitude: request.locationLongitude).isGiven else { return [] }
        let other: AnnouncementStatus = request.status == .missing ? .found : .missing
        let search = NearSearch(latitude: request.locationLatitude, longitude: request.locationLongitude, radiusKm: Self.radiusKm,
                                filter: AnnouncementFilter(species: request.species, status: other))
        let nearby = try await services.store.near(search, limit: 200, after: nil).announcements
        let targetSignature = await signatures.signature(for: target.photoKey, logger: logger)
        var found: [Match] = []
        for (candidate, distance) in nearby where candidate.id != target.id {
            let lost = request.status == .missing ? request.lastSeenDate : candidate.request.lastSeenDate
            let seen = request.status == .missing ? candidate.request.lastSeenDate : request.lastSeenDate
            let days = Self.days(from: lost, to: seen)
            guard days >= 0, days <= Self.maximumDays, !Self.sexesContradict(request.sex, candidate.request.sex) else { continue }
            var score = 100 - 2 * distance - 0.5 * Double(days)
            var reasons = [String(format: "%.1f km", distance),
                           days == 0 ? "the same day" : "\(days) day\(days == 1 ? "" : "s") \(request.status == .missing ? "later" : "earlier")"]
            let shared = Self.breedWords(request.breed).intersection(Self.breedWords(candidate.request.breed)).sorted()
            if !shared.isEmpty {
                score += Double(min(2, shared.count)) * 10
                reasons.append("both " + shared.map { "'\($0)'" }.joined(separator: " and "))
            }
            if target.photoKey != nil, candidate.photoKey != nil {
                score += 5
                if let targetSignature, let theirs = await signatures.signature(for: candidate.photoKey, logger: logger) {
                    let difference = targetSignature.distance(to: theirs)
                    if difference < 15 {
                        score += 15
                        reasons.append("similar colours")
                    } else if difference > 30 {
                        score -= 25
                        reasons.append("different colours")
                    }
                }
            }
            found.append(Match(announcement: candidate, distanceKm: distance, daysApart: days, score: (score * 10).rounded() / 10, reasons: reasons))
        }
        return Array(found.sorted { $0.score > $1.score || ($0.score == $1.score && $0.distanceKm < $1.distanceKm) }.prefix(Self.limit))
    }

    /// Whole days from `start` to `end` (negative when `end` is earlier).
    static func days(from start: LocalDate, to end: LocalDate) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let from = calendar.date(from: DateComponents(year: start.year, month: start.month, day: start.day)),
              let to = calendar.date(from: DateComponents(year: end.year, month: end.month, day: end.day)) else { return Int.max }
        return calendar.dateComponents([.day], from: from, to: to).day ?? Int.max
    }

    /// Male and female contradict; unknown contradicts nothing.
    static func sexesContradict(_ one: Gender, _ other: Gender) -> Bool {
        one != .unknown && other != .unknown && one != other
    }

    /// The words of a breed that say something ("Labrador mix" → labrador), folded.
    static func breedWords(_ breed: String?) -> Set<String> {
        let ignored: Set<String> = ["mix", "mixed", "cross", "breed", "dog", "cat", "the", "and", "with", "unknown"]
        return Set((breed ?? "").folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .split { !$0.isLetter }.map(String.init).filter { $0.count >= 3 && !ignored.contains($0) })
    }
}

/// Colour signatures of stored photos, computed once per photo when first needed (the photo
/// decoded small, on NIO's thread pool) and kept in the store.
struct ColourSignatures: Sendable {
    let store: (any PhotoSignatureStoring)?
    let photos: any PhotoStoring

    /// `nil` without a photo, or when it cannot be read (logged; the match just has no colour).
    func signature(for photoKey: String?, logger: Logger) async -> ColourSignature? {
        guard let photoKey, let store else { return nil }
        do {
            if let known = try await store.signature(for: photoKey) { return known }
            guard let bytes = try await photos.data(for: photoKey) else { return nil }
            let signature = try await NIOThreadPool.singleton.runIfActive { try PhotoPipeline.colourSignature(bytes) }
            try await store.storeSignature(signature, for: photoKey)
            return signature
        } catch {
            logger.warning("no colour signature for photo \(photoKey): \(error)")
            return nil
        }
    }
}
