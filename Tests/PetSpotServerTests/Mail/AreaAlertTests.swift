import Foundation
import HummingbirdTesting
import NIOCore
import PetSpot
@testable import PetSpotServer
import Testing

/// Area subscriptions in the store, on the configured backend: nothing but the confirmation
/// until it is confirmed, then a message per new report or a daily digest, and unsubscribing
/// erases the address with what was queued for it.
@Suite struct AreaAlertTests {
    static func subscription(_ email: String, cadence: AlertSubscription.Cadence, now: Date, species: Species? = .dog) -> AlertSubscription {
        AlertSubscription(email: email, latitude: 52.2297, longitude: 21.0122, radiusKm: 5, place: "Warsaw, Poland",
                          species: species, status: nil, cadence: cadence, createdAt: now)
    }

    static func subscribe(_ server: TestServer, _ subscription: AlertSubscription) async throws -> Bool {
        let mailer = server.services.mail!
        let confirmation = mailer.item(AlertConfirmationMail(subscription: subscription, confirmURL: "\(mailer.base)/alerts/confirm/x"),
                                       to: subscription.email, related: subscription.id, now: subscription.createdAt,
                                       caps: [.init(.recipient(subscription.email), limit: 1, since: subscription.createdAt.addingTimeInterval(-86400))])!
        return try await server.outbox.addSubscription(subscription, confirmation: confirmation, now: subscription.createdAt)
    }

    @Test func onlyTheConfirmationUntilConfirmedThenEachNewReport() async throws {
        let clock = TestClock()
        let server = try await MatchMailTests.server(clock: clock)
        try await server.test { client in
            let each = Self.subscription("each@example.net", cadence: .each, now: clock.now)
            #expect(try await Self.subscribe(server, each))
            // At most one confirmation a day per address, however many times it is entered.
            #expect(try await !Self.subscribe(server, Self.subscription("EACH@example.net", cadence: .daily, now: clock.now)))
            let confirmations = try await server.drainOutbox()
            #expect(confirmations.map(\.item.kind) == [.alertConfirmation])

            // Not confirmed: a dog reported in the area sends nothing to it.
            _ = try await client.createAnnouncement(RequestBodies.announcement(["email": #""a@example.org""#]))
            #expect(try await server.drainOutbox().filter { $0.item.recipient == "each@example.net" }.isEmpty)

            #expect(try await server.outbox.confirmSubscription(id: each.id, at: clock.now)?.confirmedAt != nil)
            let dog = try await client.createAnnouncement(RequestBodies.announcement(["email": #""b@example.org""#]))
            _ = try await client.createAnnouncement(RequestBodies.announcement(["email": #""c@example.org""#, "species": #""CAT""#]))
            _ = try await client.createAnnouncement(RequestBodies.announcement(["email": #""d@example.org""#, "location_latitude": "52.4"]))
            let alerts = try await server.drainOutbox().filter { $0.item.recipient == "each@example.net" }
            #expect(alerts.map(\.item.kind) == [.areaAlert])
            #expect(alerts.first?.item.announcementID == dog.id.rawValue)
            let mail = try #require(try MatchMailTests.mails(alerts, kind: .areaAlert).first)
            #expect(mail.header("Subject") == "Missing: Dog near Warsaw, Poland")
            #expect(mail.header("List-Unsubscribe")?.contains("/mail/unsubscribe/u.\(each.id).v") == true)
            #expect(mail.html_errors.isEmpty, "\(mail.html_errors)")

            // Unsubscribed: the address is gone with what was queued for it.
            _ = try await client.createAnnouncement(RequestBodies.announcement(["email": #""e@example.org""#]))
            let token = MailLinks(keyring: TestServer.keyring).token(.unsubscribe, id: each.id)
            let reply = try await client.execute(uri: "/mail/unsubscribe/\(token)", method: .post, body: ByteBuffer(string: "List-Unsubscribe=One-Click"))
            #expect(reply.status == .ok)
            #expect(try await server.outbox.subscription(id: each.id) == nil)
            #expect(try await server.drainOutbox().filter { $0.item.recipient == "each@example.net" }.isEmpty)
            #expect(try await server.outboxRows(recipient: "each@example.net") == 0, "its confirmation and alerts erased too")
        }
    }

    @Test func aDailyDigestHoldsTheDaysNewReportsOnce() async throws {
        let clock = TestClock()
        let server = try await MatchMailTests.server(clock: clock)
        try await server.test { client in
            let daily = Self.subscription("daily@example.net", cadence: .daily, now: clock.now)
            #expect(try await Self.subscribe(server, daily))
            _ = try await server.outbox.confirmSubscription(id: daily.id, at: clock.now)
            _ = try await server.drainOutbox()
            clock.advance(by: 60)
            let first = try await client.createAnnouncement(RequestBodies.announcement(["email": #""a@example.org""#]))
            let second = try await client.createAnnouncement(RequestBodies.announcement(["email": #""b@example.org""#, "status": #""FOUND""#]))
            // Not each: nothing at once.
            #expect(try await server.drainOutbox().filter { $0.item.recipient == "daily@example.net" }.isEmpty)
            let digests = AreaDigests(services: server.services, mailer: server.services.mail!, outbox: server.outbox)
            #expect(try await digests.runDue(now: clock.now, logger: .init(label: "test")) == 0, "not a day yet")
            clock.advance(by: 86400)
            #expect(try await digests.runDue(now: clock.now, logger: .init(label: "test")) == 1)
            #expect(try await digests.runDue(now: clock.now, logger: .init(label: "test")) == 0, "once")
            let sent = try await server.drainOutbox().filter { $0.item.recipient == "daily@example.net" }
            let mail = try #require(try MatchMailTests.mails(sent, kind: .areaDigest).first)
            #expect(mail.header("Subject") == "2 new reports near Warsaw, Poland")
            let pages = mail.text_links.filter { $0.contains("/pets/") }
            #expect(pages == ["\(TestServer.publicURL)/pets/\(second.id.rawValue)", "\(TestServer.publicURL)/pets/\(first.id.rawValue)"])
            #expect(mail.header("List-Unsubscribe-Post") == "List-Unsubscribe=One-Click")
            // A day without reports sends nothing, and the next day's digest starts after this one.
            clock.advance(by: 86400)
            #expect(try await digests.runDue(now: clock.now, logger: .init(label: "test")) == 0)
        }
    }
}
