import Foundation
@testable import PetSpotServer
import Testing

/// The schedule a deferred message follows: when the attempts fall, that a relay dead for two
/// minutes delays mail by at most one more delay and loses none, and that trying stops at 24 h.
@Suite struct RetryScheduleTests {
    /// Every attempt of a message queued at 0 while the relay is down until `downUntil`: the
    /// times tried, and whether it was delivered or given up.
    static func attempts(_ schedule: RetrySchedule, downUntil: TimeInterval) -> (times: [TimeInterval], delivered: Bool) {
        let start = Date(timeIntervalSince1970: 0)
        var now: TimeInterval = 0
        var times: [TimeInterval] = []
        while true {
            times.append(now)
            if now >= downUntil { return (times, true) }
            guard let next = schedule.nextAttempt(afterAttempts: times.count, queuedAt: start, now: start.addingTimeInterval(now)) else {
                return (times, false)
            }
            now = next.timeIntervalSince1970
        }
    }

    @Test func aRelayDeadForTwoMinutesDelaysButLosesNothing() {
        let (times, delivered) = Self.attempts(.standard, downUntil: 120)
        #expect(delivered)
        #expect(times == [0, 60, 180])
    }

    @Test func tryingStopsAfterADay() {
        let (times, delivered) = Self.attempts(.standard, downUntil: .infinity)
        #expect(!delivered)
        #expect(times.last! <= 86400 && times.last! > 86400 - 3600)
        #expect(times.count == 29, "\(times.count) attempts")
        let (_, lateRelay) = Self.attempts(.standard, downUntil: 23 * 3600)
        #expect(lateRelay, "a relay back within the day still gets the mail")
    }

    @Test func delaysAreReadAsOperatorsWriteThem() {
        #expect(RetrySchedule.parseDelays("1m, 5m,1h") == [.seconds(60), .seconds(300), .seconds(3600)])
        #expect(RetrySchedule.parseDelays("250ms") == [.milliseconds(250)])
        #expect(RetrySchedule.parseDelays("") == nil)
        #expect(RetrySchedule.parseDelays("5") == nil)
        #expect(RetrySchedule.parseDelays("-1s") == nil)
        #expect(RetrySchedule.parseDuration("8d") == nil)
        #expect(RetrySchedule.parseDuration("24h") == .seconds(86400))
    }
}

/// The signed tokens of mail links.
@Suite struct MailLinksTests {
    @Test func aTokenOpensOnlyWhatItWasMadeFor() throws {
        let links = MailLinks(keyring: TestServer.keyring)
        let id = UUID().uuidString.lowercased()
        let token = links.token(.unsubscribe, id: id)
        #expect(links.verify(token, for: .unsubscribe) == id)
        #expect(links.verify(token, for: .matchMailOff) == nil)
        #expect(links.verify(token, for: .confirmSubscription) == nil)
        let other = UUID().uuidString.lowercased()
        #expect(links.verify(token.replacingOccurrences(of: id, with: other), for: .unsubscribe) == nil)
        var altered = Array(token)
        altered[altered.count - 1] = altered.last == "A" ? "B" : "A"
        #expect(links.verify(String(altered), for: .unsubscribe) == nil)
        #expect(links.verify("u.\(id).v1.", for: .unsubscribe) == nil)
        #expect(links.verify("u.not-an-id.v1.AAAA", for: .unsubscribe) == nil)
        // Under another server's key it is not ours.
        let stranger = MailLinks(keyring: try PasswordKeyring.parse(PasswordKeyring.newKeyLine()))
        #expect(stranger.verify(token, for: .unsubscribe) == nil)
    }

    @Test func aTokenOutlivesAKeyRotation() throws {
        let v1 = PasswordKeyring.newKeyLine(version: 1)
        let old = MailLinks(keyring: try PasswordKeyring.parse(v1))
        let rotated = MailLinks(keyring: try PasswordKeyring.parse(v1 + "\n" + PasswordKeyring.newKeyLine(version: 2)))
        let id = UUID().uuidString.lowercased()
        #expect(rotated.verify(old.token(.confirmSubscription, id: id), for: .confirmSubscription) == id)
        #expect(rotated.token(.confirmSubscription, id: id).contains(".v2."))
    }
}
