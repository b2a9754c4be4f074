import Foundation
import HTTPTypes
import Hummingbird
import Logging
import PetSpot
import Synchronization

/// The owner's Basic credentials (`id:management_password`) on a change to an announcement:
/// 401 without credentials or with another id's, whatever else holds (no attempt used); then 404
/// for an unknown id, 410 for one taken down, 429 while the throttle has no attempt left, 401 for
/// a wrong password. The same throttle as photo uploads: an attempt is reserved before the
/// password is checked.
struct OwnerCheck: Sendable {
    let services: ServerServices

    /// The live announcement `idText` names, or 404 / 410.
    func live(_ idText: String) async throws -> StoredAnnouncement {
        guard let id = AnnouncementID(rawValue: idText) else { throw APIFailure.notFound(idText) }
        switch try await services.store.lookup(id: id) {
        case .live(let announcement): return announcement
        case .gone: throw APIFailure.gone
        case .unknown: throw APIFailure.notFound(idText)
        }
    }

    /// The live announcement `idText` names, once the request's credentials are its owner's.
    func authorized(_ request: Request, idText: String, context: some ClientRequestContext) async throws -> StoredAnnouncement {
        guard let header = request.headers[.authorization],
              let credentials = AnnouncementCredentials(authorizationHeader: header),
              credentials.id == AnnouncementID(rawValue: idText) else { throw APIFailure.unauthorized }
        let announcement = try await live(idText)
        try await authorize(request, for: announcement, context: context)
        return announcement
    }

    /// Whether the request carries credentials at all (a read with them is the owner's).
    static func carriesCredentials(_ request: Request) -> Bool {
        request.headers[.authorization] != nil
    }

    /// Passes when the request's credentials are the owner's; throws 401 or 429 otherwise.
    func authorize(_ request: Request, for announcement: StoredAnnouncement, context: some ClientRequestContext) async throws {
        guard let header = request.headers[.authorization],
              let credentials = AnnouncementCredentials(authorizationHeader: header),
              credentials.id == announcement.id else { throw APIFailure.unauthorized }
        let reservation = try await services.throttle.reserve(announcement: announcement.id, client: context.client, now: services.now())
        try await verify(credentials, for: announcement, reservation: reservation, logger: context.logger)
    }

    /// Checks the password of an attempt already reserved (an upload reserves it before it is
    /// admitted): 401 when it is wrong.
    func verify(_ credentials: AnnouncementCredentials, for announcement: StoredAnnouncement,
                reservation: AuthThrottle.Reservation, logger: Logger) async throws {
        let keyring = services.keyring, stored = announcement.passwordHash
        let verdict = Mutex<PasswordKeyring.Verdict>(.mismatch)
        let right = try await services.throttle.check(reservation, logger: logger) {
            let found = await keyring.verify(id: announcement.id.rawValue, password: credentials.managementPassword, stored: stored)
            verdict.withLock { $0 = found }
            return found != .mismatch
        }
        guard right else { throw APIFailure.unauthorized }
        // Checked under an older key, or a sealed bcrypt hash: the row takes the current form.
        if case .match(let restore?) = verdict.withLock({ $0 }) {
            do {
                try await services.store.replacePasswordHash(id: announcement.id, from: stored, to: restore)
            } catch {
                logger.warning("the password form of \(announcement.id.rawValue) could not be brought up to date: \(error)")
            }
        }
    }
}

/// The announcement's version as an entity tag: its revision, which every change bumps (a clock
/// cannot tell two changes in one second apart). The owner's view of a closed announcement shows
/// its contact details, so it is another representation with its own tag.
enum AnnouncementETag {
    static func value(_ announcement: StoredAnnouncement, ownerView: Bool) -> String {
        "\"r\(announcement.revision)\(ownerView && announcement.isClosed ? "-owner" : "")\""
    }

    /// Whether an `If-Match` header value admits this revision: `*`, or a list holding one of
    /// its tags (strong comparison; a weak tag never matches).
    static func matches(_ header: String, _ announcement: StoredAnnouncement) -> Bool {
        let tags = header.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return tags.contains("*") || tags.contains(value(announcement, ownerView: false)) || tags.contains(value(announcement, ownerView: true))
    }
}
