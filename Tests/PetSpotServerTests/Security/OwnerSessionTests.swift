import Foundation
import HTTPTypes
import Hummingbird
import PetSpot
import Testing
@testable import PetSpotServer

/// The owner's session cookie: good for its one announcement, its generation and 30 minutes,
/// under every key of the ring; anything else is refused.
@Suite struct OwnerSessionTests {
    private func request(_ cookies: [String]) -> Request {
        var headers: HTTPFields = [:]
        if !cookies.isEmpty { headers[.cookie] = cookies.map { "\(OwnerSession.cookieName)=\($0)" }.joined(separator: "; ") }
        let head = HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: "/pets/x/manage", headerFields: headers)
        return Request(head: head, body: .init(buffer: .init()))
    }

    @Test func aSessionOpensItsAnnouncementAtItsGenerationFor30MinutesOnly() throws {
        let old = PasswordKeyring.Key(version: 1, bytes: Array(repeating: 3, count: 32))
        let new = PasswordKeyring.Key(version: 2, bytes: Array(repeating: 5, count: 32))
        let session = OwnerSession(keyring: try PasswordKeyring(keys: [old]))
        let mine = StoredAnnouncement.sample("1f8fad5b-d9cb-469f-a165-70867728950e", generation: 4)
        let other = StoredAnnouncement.sample("0b1c2d3e-0000-4000-8000-000000000000", generation: 4)
        let now = Date(timeIntervalSince1970: 1_750_000_000)
        let cookie = session.cookie(for: mine, now: now, secure: true)
        #expect(cookie.httpOnly && cookie.secure && cookie.sameSite == .strict && cookie.maxAge == 1800)
        #expect(cookie.path == "/pets/1f8fad5b-d9cb-469f-a165-70867728950e/manage")
        #expect(cookie.value.hasPrefix("v1.4.1750001800."))
        let browser = request([cookie.value])
        #expect(session.verify(browser, for: mine, now: now) == .signedIn)
        #expect(session.verify(browser, for: mine, now: now.addingTimeInterval(1799)) == .signedIn)
        // Past its 30 minutes, or once the generation moved on (signed out, new password): ended.
        #expect(session.verify(browser, for: mine, now: now.addingTimeInterval(1800)) == .ended)
        var signedOut = mine
        signedOut.sessionGeneration += 1
        #expect(session.verify(browser, for: signedOut, now: now) == .ended)
        // Another announcement, a changed generation or expiry, a changed MAC, an unknown key: invalid.
        #expect(session.verify(browser, for: other, now: now) == .invalid)
        #expect(session.verify(request([cookie.value.replacingOccurrences(of: "v1.4.", with: "v1.5.")]), for: signedOut, now: now) == .invalid)
        #expect(session.verify(request([cookie.value.replacingOccurrences(of: ".1750001800.", with: ".1750009000.")]), for: mine, now: now) == .invalid)
        let changed = String(cookie.value.dropLast()) + (cookie.value.last == "A" ? "B" : "A")
        #expect(session.verify(request([changed]), for: mine, now: now) == .invalid)
        #expect(session.verify(request(["v3" + cookie.value.dropFirst(2)]), for: mine, now: now) == .invalid)
        #expect(session.verify(request([String(repeating: "v", count: 4000)]), for: mine, now: now) == .invalid)
        #expect(session.verify(request([]), for: mine, now: now) == .none)
        // A forged cookie beside the good one does not hide it.
        #expect(session.verify(request([changed, cookie.value]), for: mine, now: now) == .signedIn)
        // After a rotation, a session made under the old key holds; new ones use the new key.
        let rotated = OwnerSession(keyring: try PasswordKeyring(keys: [old, new]))
        #expect(rotated.verify(browser, for: mine, now: now) == .signedIn)
        #expect(rotated.cookie(for: mine, now: now, secure: false).value.hasPrefix("v2."))
        #expect(!rotated.cookie(for: mine, now: now, secure: false).secure)
        // A replica whose clock is a little behind still accepts it.
        #expect(session.verify(browser, for: mine, now: now.addingTimeInterval(-120)) == .signedIn)
    }
}
