import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PetSpot
@testable import PetSpotServer
import TestEngines
import TestScratch
import Testing

/// Possible-match mail from the outbox, on the configured backend: which pairs are mailed (above
/// the threshold, once per pair, the missing report's owner), how many a day, and none once off
/// or closed.
@Suite struct MatchMailTests {
    static func server(clock: TestClock) async throws -> TestServer {
        var server = try await TestServer(now: { clock.now })
        var limits = RateLimits()
        limits.creates = .init(perMinute: 600, burst: 100)
        limits.uploads = .init(perMinute: 600, burst: 100)
        server.services.rateLimiter = RateLimiter(limits: limits)
        try server.turnMailOn()
        return server
    }

    static func mails(_ entries: [OutboxEntry], kind: OutboxItem.Kind) throws -> [ParsedMail] {
        let folder = try ScratchFolder.make("outbox")
        let files = try entries.filter { $0.item.kind == kind }.enumerated().map { index, entry in
            let path = "\(folder)/\(index).eml"
            try Data(entry.item.content ?? []).write(to: URL(fileURLWithPath: path))
            return path
        }
        return try ParsedMail.read(files)
    }

    static func named(_ client: any TestClientProtocol, _ name: String, _ latitude: Double, _ longitude: Double, status: String,
                      date: String, breed: String? = nil, email: String = "owner@example.com") async throws -> AnnouncementResponse {
        var fields: [String: String?] = [
            "location_latitude": String(latitude), "location_longitude": String(longitude), "status": "\"\(status)\"",
            "last_seen_date": "\"\(date)\"", "pet_name": "\"\(name)\"", "email": "\"\(email)\"",
        ]
        fields["breed"] = breed.map { "\"\($0)\"" } ?? .some(nil)
        return try await client.createAnnouncement(RequestBodies.announcement(fields))
    }

    @Test func pairsAboveTheThresholdAreMailedOnceToTheMissingReportsOwner() async throws {
        let clock = TestClock()
        let server = try await Self.server(clock: clock)
        try await server.test { client in
            let lost = try await Self.named(client, "Rex", 52.2297, 21.0122, status: "MISSING", date: "2025-11-10", breed: "Golden Retriever")
            #expect(try await client.uploadPhoto(try MatchesTests.photo(MatchesTests.golden), to: lost).status == .created)
            let first = try await server.drainOutbox()
            #expect(first.map(\.item.kind) == [.reportConfirmation], "only the confirmation: nothing matches yet")

            let golden = try await Self.named(client, "", 52.2300, 21.0130, status: "FOUND", date: "2025-11-12", breed: "retriever mix",
                                              email: "finder@example.org")
            #expect(try await client.uploadPhoto(try MatchesTests.photo(MatchesTests.golden), to: golden).status == .created)
            // 10 km and 40 days away: 60 points, under the threshold.
            _ = try await Self.named(client, "", 52.3, 21.1, status: "FOUND", date: "2025-12-20", email: "far@example.org")
            let sent = try await server.drainOutbox()
            let matches = try Self.mails(sent, kind: .possibleMatch)
            try #require(matches.count == 1, "\(sent.map(\.item.kind))")
            let mail = matches[0]
            #expect(mail.header("To") == "owner@example.com")
            #expect(mail.header("Subject") == "Could this be Rex?")
            #expect(mail.header("List-Unsubscribe")?.hasPrefix("<\(TestServer.publicURL)/mail/unsubscribe/m.\(lost.id.rawValue).v") == true)
            #expect(mail.header("List-Unsubscribe-Post") == "List-Unsubscribe=One-Click")
            #expect(mail.html_errors.isEmpty, "\(mail.html_errors)")
            #expect(mail.parts.map(\.type) == ["text/plain", "text/html"])
            let foundPage = "\(TestServer.publicURL)/pets/\(golden.id.rawValue)", lostPage = "\(TestServer.publicURL)/pets/\(lost.id.rawValue)"
            // Both photos are thumbnails linked to their pages; no attachment.
            #expect(mail.linked_images.map(\.href) == [foundPage, lostPage])
            #expect(mail.linked_images.allSatisfy { $0.src?.hasPrefix("\(TestServer.publicURL)/photos/") == true && $0.src?.hasSuffix("/w320.jpg") == true })
            #expect(mail.parts.allSatisfy { $0.disposition == nil })
            #expect(mail.text?.contains("0.1 km from where Rex was last seen, 2 days later") == true, "\(mail.text ?? "")")
            #expect(mail.text?.contains("both 'retriever', similar colours") == true)
            #expect(mail.text_links.contains(foundPage) && mail.text_links.contains(lostPage))
            #expect(mail.html?.contains("finder@example.org") == false, "no contact details in the mail")

            // Edited, and given a new photo: scanned again, the pair is not mailed twice.
            let patch = try await client.execute(uri: AnnouncementsAPI.announcementPath(id: lost.id), method: .patch,
                                                 headers: [.contentType: "application/json", .authorization: lost.credentials.authorizationHeader],
                                                 body: ByteBuffer(string: #"{"description":"Golden, very friendly"}"#))
            #expect(patch.status == .ok)
            #expect(try await server.drainOutbox().isEmpty)
        }
    }

    /// The app creates a report, then uploads its photo: mail about it waits for the photo, so
    /// the match mail shows both.
    @Test func mailAboutAReportWaitsForItsPhoto() async throws {
        let clock = TestClock()
        var waiting = try await Self.server(clock: clock)
        try waiting.turnMailOn(photoGrace: .seconds(120))
        let server = waiting
        try await server.test { client in
            let lost = try await Self.named(client, "Rex", 52.2297, 21.0122, status: "MISSING", date: "2025-11-10")
            #expect(try await client.uploadPhoto(try MatchesTests.photo(MatchesTests.golden), to: lost).status == .created)
            let found = try await Self.named(client, "", 52.2300, 21.0130, status: "FOUND", date: "2025-11-12", email: "finder@example.org")
            clock.advance(by: 10)
            #expect(try await server.drainOutbox().filter { $0.item.kind == .possibleMatch }.isEmpty, "the found report's photo is awaited")
            #expect(try await client.uploadPhoto(try MatchesTests.photo(MatchesTests.golden), to: found).status == .created)
            let mails = try Self.mails(try await server.drainOutbox(), kind: .possibleMatch)
            #expect(mails.count == 1)
            #expect(mails.first?.images.count == 2, "both photos")
            // Two minutes on, the scans that waited find the pair mailed.
            clock.advance(by: 180)
            #expect(try await server.drainOutbox().filter { $0.item.kind == .possibleMatch }.isEmpty)
        }
    }

    @Test func atMostThreeADayPerMissingReportTheRestWaitForRoom() async throws {
        let clock = TestClock()
        let server = try await Self.server(clock: clock)
        try await server.test { client in
            let lost = try await Self.named(client, "Rex", 52.2297, 21.0122, status: "MISSING", date: "2025-11-10")
            for index in 0..<5 {
                _ = try await Self.named(client, "", 52.2297 + Double(index) * 0.001, 21.0122, status: "FOUND", date: "2025-11-11",
                                         email: "finder\(index)@example.org")
            }
            let sent = try await server.drainOutbox()
            #expect(sent.filter { $0.item.kind == .possibleMatch }.count == 3)
            // Later the same day: still full.
            clock.advance(by: 2 * 3600)
            #expect(try await server.drainOutbox().filter { $0.item.kind == .possibleMatch }.isEmpty)
            // A day on, the deferred scans find room for the other two.
            clock.advance(by: 23 * 3600)
            let later = try await server.drainOutbox().filter { $0.item.kind == .possibleMatch }
            #expect(later.count == 2)
            #expect(Set((sent + later).compactMap(\.item.relatedID)).count == 5, "each pair once")
            #expect(later.allSatisfy { $0.item.announcementID == lost.id.rawValue })
        }
    }

    @Test func offWithOneClickAndNoneForClosedReports() async throws {
        let clock = TestClock()
        let server = try await Self.server(clock: clock)
        try await server.test { client in
            let lost = try await Self.named(client, "Rex", 52.2297, 21.0122, status: "MISSING", date: "2025-11-10")
            _ = try await server.drainOutbox()
            // One found report queued, not yet delivered, when the owner turns match mail off.
            _ = try await Self.named(client, "", 52.2298, 21.0122, status: "FOUND", date: "2025-11-11", email: "a@example.org")
            let scans = try await server.drainOutbox(now: clock.now)
            #expect(scans.filter { $0.item.kind == .possibleMatch }.count == 1)
            let token = MailLinks(keyring: TestServer.keyring).token(.matchMailOff, id: lost.id.rawValue)
            // GET only asks; a POST without cookies or a form token stops them.
            let asked = try await client.execute(uri: "/mail/unsubscribe/\(token)", method: .get)
            #expect(asked.status == .ok && String(buffer: asked.body).contains("<form method=\"post\">"))
            #expect(try await !server.outbox.isMatchMailOff(announcementID: lost.id.rawValue))
            let stopped = try await client.execute(uri: "/mail/unsubscribe/\(token)", method: .post,
                                                   headers: [.contentType: "application/x-www-form-urlencoded"],
                                                   body: ByteBuffer(string: "List-Unsubscribe=One-Click"))
            #expect(stopped.status == .ok && stopped.headers[.location] == nil)
            #expect(stopped.headers[.cacheControl] == "no-store")
            #expect(try await server.outbox.isMatchMailOff(announcementID: lost.id.rawValue))
            _ = try await Self.named(client, "", 52.2299, 21.0122, status: "FOUND", date: "2025-11-11", email: "b@example.org")
            #expect(try await server.drainOutbox().filter { $0.item.kind == .possibleMatch }.isEmpty)

            // A forged or altered token does nothing.
            let forged = try await client.execute(uri: "/mail/unsubscribe/m.\(lost.id.rawValue).v1.AAAAAAAAAAAAAAAAAAAAAA", method: .post)
            #expect(forged.status == .notFound)

            // Another owner's report, closed: its scans mail nothing.
            let other = try await Self.named(client, "Max", 52.2297, 21.0122, status: "MISSING", date: "2025-11-10", email: "max@example.org")
            _ = try await server.drainOutbox()
            let closing = try await client.execute(uri: AnnouncementsAPI.announcementPath(id: other.id), method: .patch,
                                                   headers: [.contentType: "application/json", .authorization: other.credentials.authorizationHeader],
                                                   body: ByteBuffer(string: #"{"status":"closed","closed_outcome":"reunited"}"#))
            #expect(closing.status == .ok)
            _ = try await Self.named(client, "", 52.2296, 21.0122, status: "FOUND", date: "2025-11-11", email: "c@example.org")
            #expect(try await server.drainOutbox().filter { $0.item.kind == .possibleMatch }.isEmpty)
        }
    }
}
