import Foundation
import Mail
import PetSpot
@testable import PetSpotServer
import Testing

/// The one-time sign-in link: good for its report, the session generation it names and its hour,
/// under any key of the ring; its outbox row holds no link; the message is made when sent, the
/// same bytes each time, and not at all once its hour passed; and the caps per report and per
/// address hold on the configured backend.
@Suite struct SignInLinkTests {
    @Test func aLinkIsGoodForItsReportItsGenerationAndItsHourOnly() throws {
        let old = PasswordKeyring.Key(version: 1, bytes: Array(repeating: 3, count: 32))
        let new = PasswordKeyring.Key(version: 2, bytes: Array(repeating: 5, count: 32))
        let keyring = try PasswordKeyring(keys: [old])
        let mine = StoredAnnouncement.sample("1f8fad5b-d9cb-469f-a165-70867728950e", generation: 2)
        let asked = Date(timeIntervalSince1970: 1_750_000_000)
        let link = SignInLink(mine, askedAt: asked)
        let token = link.token(keyring: keyring)
        #expect(token.hasPrefix("1f8fad5b-d9cb-469f-a165-70867728950e.2.1750003600.v1."))
        #expect(SignInLink.verify(token, keyring: keyring) == link)
        #expect(link.state(for: mine, now: asked.addingTimeInterval(3599)) == .usable)
        #expect(link.state(for: mine, now: asked.addingTimeInterval(3600)) == .expired)
        var signedInSince = mine
        signedInSince.sessionGeneration += 1
        #expect(link.state(for: signedInSince, now: asked) == .used)
        // Any part changed: not this server's link.
        for forged in [token.replacingOccurrences(of: ".2.", with: ".3."),
                       token.replacingOccurrences(of: ".1750003600.", with: ".1750090000."),
                       token.replacingOccurrences(of: "1f8fad5b", with: "0f8fad5b"),
                       String(token.dropLast()) + (token.last == "A" ? "B" : "A"),
                       "v3" + token, String(repeating: "1", count: 400), ""] {
            #expect(SignInLink.verify(forged, keyring: keyring) == nil, "\(forged)")
        }
        // After a key rotation a link made before still works; new ones are made under the new key.
        let rotated = try PasswordKeyring(keys: [old, new])
        #expect(SignInLink.verify(token, keyring: rotated) == link)
        #expect(link.token(keyring: rotated).contains(".v2."))
        // Another purpose's signature over the same fields is not a link (the owner's session cookie).
        #expect(SignInLink.verify(OwnerSession(keyring: keyring).cookie(for: mine, now: asked, secure: false).value, keyring: keyring) == nil)
    }

    @Test func theOutboxHoldsNoLinkAndCapsLinksPerReportAndPerAddress() async throws {
        let clock = TestClock()
        let server = try await MatchMailTests.server(clock: clock)
        let mail = try #require(server.services.mail)
        let outbox = server.outbox
        try await server.test { client in
            var reports: [StoredAnnouncement] = []
            for name in ["Rex", "Ada", "Bo", "Cy", "Di"] {
                let created = try await MatchMailTests.named(client, name, 52.2, 21.0, status: "MISSING", date: "2025-11-10",
                                                             email: "owner@example.com")
                guard case .live(let stored) = try await server.store.lookup(id: created.id) else { Issue.record("not stored"); return }
                reports.append(stored)
            }
            _ = try await server.drainOutbox()

            // Four asks for one report: three written. Then three each for the others: the address's ten a day.
            var written = 0
            for _ in 0..<4 { written += try await outbox.queueMail([ManageForgot.item(for: reports[0], mail: mail, now: clock.now)!], now: clock.now) }
            #expect(written == ManageForgot.perAnnouncementPerHour)
            for report in reports.dropFirst() {
                for _ in 0..<3 { written += try await outbox.queueMail([ManageForgot.item(for: report, mail: mail, now: clock.now)!], now: clock.now) }
            }
            #expect(written == ManageForgot.perAddressPerDay)
            // No row holds a message: the link is made when it is sent.
            #expect(try await server.outboxRows(where: "kind = 'sign-in-link'") == 10)
            #expect(try await server.outboxRows(where: "kind = 'sign-in-link' AND content IS NOT NULL") == 0)

            // Made twice (a resend after a crash), the same bytes, holding the link of the report as stored.
            let messages = OutboxMessages(services: server.services, mailer: mail, outbox: outbox)
            let made = Made()
            _ = try await outbox.processNextOutboxItem(now: clock.now) { entry in
                await made.add(entry, try? await messages.prepare(entry), try? await messages.prepare(entry))
                return .retry(at: clock.now, reason: "kept for the test")
            }
            let (entry, first, second) = try #require(await made.value)
            guard case .send(let bytes) = try #require(first) else { Issue.record("not made: \(String(describing: first))"); return }
            #expect(first == second)
            guard case .live(let report) = try await server.store.lookup(id: AnnouncementID(rawValue: entry.item.announcementID!)!) else { return }
            let token = SignInLink(report, askedAt: entry.createdAt).token(keyring: server.services.keyring)
            let text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "=\r\n", with: "")
            #expect(text.contains("/mail/sign-in/\(token)") && text.contains("Message-ID: <\(entry.item.messageID!)>"))

            // Past its hour the message is not made at all.
            clock.advance(by: SignInLink.lifetime)
            #expect(try await messages.prepare(entry) == .cancel("the link's hour passed before it could be sent"))
        }
    }
}

private actor Made {
    var value: (OutboxEntry, OutboxMessages.Prepared?, OutboxMessages.Prepared?)?
    func add(_ entry: OutboxEntry, _ first: OutboxMessages.Prepared?, _ second: OutboxMessages.Prepared?) {
        if value == nil { value = (entry, first, second) }
    }
}
