import Foundation
import HTTPTypes
import Hummingbird
import PetSpot

/// `POST /pets/{id}/manage/sign-in`: the management password typed on the sign-in page, checked
/// exactly as the API's Basic credentials are (``OwnerCheck``: the keyed check, an attempt
/// reserved in the store before it, ``AuthThrottle``'s limits), so a browser gets no more
/// guesses than a script and the owner is never locked out longer than through the API.
///
/// A wrong password is said to be wrong; from the third wrong one in a row its answer is slowed
/// (one second more each time, three at most); past the throttle's limit the page says how long
/// to wait (429, `Retry-After`). The right one starts a session (``OwnerSession``) and answers
/// 303 to the manage page. A password that cannot be one (not six digits) uses no attempt.
struct ManageSignIn {
    let services: ServerServices
    var access: ManageAccess { ManageAccess(services: services) }

    func signIn(_ request: Request, announcement: StoredAnnouncement, context: some ClientRequestContext & ContinueRequestContext) async throws -> Response {
        let (fields, _) = try await access.smallForm(request, context: context)
        let password = fields.text(ManageField.password).trimmingCharacters(in: .whitespaces)
        guard !password.isEmpty else {
            return await access.signInPage(announcement, request: request, status: .unprocessableContent,
                                           problem: "Enter the management password")
        }
        guard password.utf8.count == AnnouncementCredentials.passwordLength, password.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            return await access.signInPage(announcement, request: request, status: .unprocessableContent,
                                           problem: "The management password is six digits, such as 123456")
        }
        let reservation: AuthThrottle.Reservation
        do {
            reservation = try await services.throttle.reserve(announcement: announcement.id, client: context.client, now: services.now())
        } catch let failure as APIFailure where failure.status == .tooManyRequests {
            let seconds = failure.headers[.retryAfter].flatMap { Int($0) } ?? 60
            var response = await access.signInPage(announcement, request: request, status: .tooManyRequests, notice:
                "Too many wrong passwords were tried for this report. To keep it safe, signing in is paused: try again in \(Self.wait(seconds)).")
            response.headers[.retryAfter] = String(seconds)
            return response
        }
        do {
            let credentials = AnnouncementCredentials(id: announcement.id, managementPassword: password)
            try await OwnerCheck(services: services).verify(credentials, for: announcement, reservation: reservation, logger: context.logger)
        } catch let failure as APIFailure where failure.status == .unauthorized {
            let policy = services.throttle.policy
            let used = reservation.scope == .client ? policy.perClient - reservation.remaining : 0
            if used >= 3 { try await Task.sleep(for: .seconds(min(3, used - 2))) }
            let left: String = switch reservation.remaining {
            case 0: ""
            case 1...3: " \(reservation.remaining) more wrong password\(reservation.remaining == 1 ? "" : "s") and signing in is paused for a while."
            default: ""
            }
            return await access.signInPage(announcement, request: request, status: .unprocessableContent,
                                           problem: "The password is not right. Check the six digits and try again.\(left)")
        }
        context.logger.info("the owner signed in to manage an announcement", metadata: ["announcement": .string(announcement.id.rawValue)])
        let cookie = access.session.cookie(for: announcement, now: services.now(), secure: access.secure(request, context: context))
        return ManageAccess.redirect(ManageNotice.signedIn.url(OwnerSession.path(announcement.id)), cookies: [cookie])
    }

    /// "14 minutes", "40 seconds", "2 hours".
    static func wait(_ seconds: Int) -> String {
        if seconds < 60 { return "\(seconds) second\(seconds == 1 ? "" : "s")" }
        let minutes = (seconds + 59) / 60
        if minutes < 120 { return "\(minutes) minute\(minutes == 1 ? "" : "s")" }
        let hours = (minutes + 59) / 60
        return "\(hours) hours"
    }
}
