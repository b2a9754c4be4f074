import Foundation
import Logging
import PetSpot

/// The mail worker's work, each run from an outbox row the event left and finished in the
/// transaction that removes the row, with the messages it makes (so a crash part-way runs it
/// again and the once-keys keep every message single):
///
/// - a match scan: a report created, edited or given a photo is compared with the open reports
///   of the other kind (``PossibleMatches``); each pair scoring ``matchThreshold`` or more that
///   was never mailed makes "Could this be Rex?" to the missing report's owner, best first, at
///   most ``MailSettings/matchMailsPerDay`` a day per missing report (past that the scan runs
///   again in an hour, until the day has room), none when either report is closed or the owner
///   turned them off; a pair with a report made moments ago whose photo has not come yet waits
///   for it (``MailSettings/photoGrace``);
/// - an area fan-out: a new report is mailed to every confirmed subscription that follows its
///   place, species and kind and asked for each report (the daily ones get it in their digest).
struct OutboxJobs: Sendable {
    /// How long a scan waits before it runs again when a report's day is full.
    static let cappedRetry: TimeInterval = 3600
    /// The score a pair needs: 100 less 2 a km and half a point a day, with breed words and
    /// photos' colours on top (``PossibleMatches``). 70 mails a pair 10 km and 10 days apart
    /// with nothing else known (75), and one whose photos plainly differ (−25) only when it is
    /// within a few km and days.
    static let matchThreshold = 70.0
    /// The farthest a subscription follows (the list's largest radius), for the box its centre
    /// is searched in.
    static let largestAlertRadiusKm = Double(AnnouncementListPage.radii.max()!)

    let services: ServerServices
    let mailer: Mailer
    let outbox: any OutboxStoring

    func run(_ entry: OutboxEntry, logger: Logger) async throws -> OutboxOutcome {
        guard let text = entry.item.announcementID, let id = AnnouncementID(rawValue: text),
              case .live(let announcement) = try await services.store.lookup(id: id), !announcement.isClosed else {
            return .done(adding: [], again: nil)
        }
        let outcome = switch entry.item.kind {
        case .matchScan: try await matchMail(for: announcement, logger: logger)
        case .areaFanOut: try await areaAlerts(for: announcement, logger: logger)
        default: OutboxOutcome.done(adding: [], again: nil)
        }
        MailMetrics.jobFinished(entry.item.kind.rawValue)
        return outcome
    }

    func matchMail(for target: StoredAnnouncement, logger: Logger) async throws -> OutboxOutcome {
        let matches = try await PossibleMatches(services: services, signatures: services.signatures).matches(for: target, logger: logger)
        let now = services.now()
        let grace = mailer.settings.photoGrace.timeInterval
        var items: [OutboxItem] = []
        var waitForPhoto: Date?
        for match in matches where match.score >= Self.matchThreshold {
            let (missing, found) = target.request.status == .missing ? (target, match.announcement) : (match.announcement, target)
            // A report just made whose photo has not come yet: this pair waits for it.
            if grace > 0, let fresh = [missing, found].first(where: { $0.photoKey == nil && now.timeIntervalSince($0.createdAt) < grace }) {
                let until = fresh.createdAt.addingTimeInterval(grace)
                waitForPhoto = min(waitForPhoto ?? until, until)
                continue
            }
            if try await outbox.isMatchMailOff(announcementID: missing.id.rawValue) { continue }
            let shown = await services.details([missing, found])
            let mail = PossibleMatchMail(missing: shown[0], found: shown[1], distanceKm: match.distanceKm, daysApart: match.daysApart,
                                         evidence: Array(match.reasons.dropFirst(2)), base: mailer.base,
                                         unsubscribeURL: mailer.unsubscribeURL(.matchMailOff, id: missing.id.rawValue))
            let cap = OutboxItem.Cap(.announcement(missing.id.rawValue), limit: mailer.settings.matchMailsPerDay,
                                     since: now.addingTimeInterval(-24 * 3600), deferWhenCapped: true)
            if let item = mailer.item(mail, to: missing.request.email, about: missing.id.rawValue, related: found.id.rawValue, now: now,
                                      onceKey: "match:\(missing.id.rawValue):\(found.id.rawValue)", caps: [cap], logger: logger) {
                items.append(item)
            }
        }
        return .done(adding: items, again: waitForPhoto)
    }

    func areaAlerts(for announcement: StoredAnnouncement, logger: Logger) async throws -> OutboxOutcome {
        let request = announcement.request
        guard PetLocation(latitude: request.locationLatitude, longitude: request.locationLongitude).isGiven else {
            return .done(adding: [], again: nil)
        }
        let following = try await outbox.confirmedSubscriptions(nearLatitude: request.locationLatitude, longitude: request.locationLongitude,
                                                                radiusKm: Self.largestAlertRadiusKm)
            .filter { $0.cadence == .each && $0.follows(announcement) }
        guard !following.isEmpty else { return .done(adding: [], again: nil) }
        let shown = await services.details([announcement])[0]
        let now = services.now()
        let items = following.compactMap { subscription in
            mailer.item(AreaAlertMail(subscription: subscription, reports: [shown], base: mailer.base,
                                      unsubscribeURL: mailer.unsubscribeURL(.unsubscribe, id: subscription.id)),
                        to: subscription.email, about: announcement.id.rawValue, related: subscription.id, now: now,
                        onceKey: "alert:\(subscription.id):\(announcement.id.rawValue)", logger: logger)
        }
        return .done(adding: items, again: nil)
    }
}

/// The daily digests: each confirmed daily subscription whose last digest is a day old gets the
/// reports created since in its area (newest first, at most 20), or nothing on a day without
/// any; either way its day moves on, once, whichever replica does it.
struct AreaDigests: Sendable {
    static let interval: TimeInterval = 24 * 3600
    static let mostReports = 20

    let services: ServerServices
    let mailer: Mailer
    let outbox: any OutboxStoring

    /// - Returns: how many digests were written.
    @discardableResult
    func runDue(now: Date, logger: Logger) async throws -> Int {
        var written = 0
        let due = try await outbox.dueDigests(before: now.addingTimeInterval(-Self.interval), limit: 50)
        for subscription in due {
            var search = NearSearch(latitude: subscription.latitude, longitude: subscription.longitude, radiusKm: subscription.radiusKm,
                                    filter: subscription.filter)
            search.newestFirst = true
            let page = try await services.store.near(search, limit: Self.mostReports * 2, after: nil)
            let new = page.announcements.map(\.0).filter { $0.createdAt > subscription.digestAfter && $0.createdAt <= now }
                .prefix(Self.mostReports)
            var message: OutboxItem?
            if !new.isEmpty {
                let shown = await services.details(Array(new))
                let alert = AreaAlertMail(subscription: subscription, reports: shown, base: mailer.base,
                                          unsubscribeURL: mailer.unsubscribeURL(.unsubscribe, id: subscription.id))
                message = mailer.item(AreaDigestMail(alert: alert), to: subscription.email, related: subscription.id, now: now, logger: logger)
            }
            if try await outbox.recordDigest(subscriptionID: subscription.id, from: subscription.digestAfter, to: now, message: message, now: now),
               message != nil {
                written += 1
            }
        }
        if written > 0 { mailer.queued() }
        // Counted when there were digests to make, not at every minute's look.
        if !due.isEmpty { MailMetrics.jobFinished("area-digest") }
        return written
    }
}
