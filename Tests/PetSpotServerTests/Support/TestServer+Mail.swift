import Foundation
import Logging
import Mail
import PostgresNIO
@testable import PetSpotServer

/// The test server with mail turned on (a relay nobody listens to: these tests take the
/// messages from the outbox, the end-to-end ones from a real SMTP server).
extension TestServer {
    static let mailSender = try! MailAddress(parsing: "PetSpot <alerts@pets.test>")

    mutating func turnMailOn(matchMailsPerDay: Int = 3, photoGrace: Duration = .zero) throws {
        var settings = MailSettings(relay: try SMTPRelay(url: "smtp://127.0.0.1:9?tls=none"), sender: Self.mailSender)
        settings.matchMailsPerDay = matchMailsPerDay
        settings.photoGrace = photoGrace
        services.mail = Mailer(settings: settings, keyring: Self.keyring, publicURL: services.publicURL)
    }

    var outbox: any OutboxStoring { store as! any OutboxStoring }

    /// Runs every row due by `now` as the worker would, except that a message is taken as sent
    /// (and returned) instead of going to a relay.
    func drainOutbox(now: Date? = nil) async throws -> [OutboxEntry] {
        let jobs = OutboxJobs(services: services, mailer: services.mail!, outbox: outbox)
        let messages = OutboxMessages(services: services, mailer: services.mail!, outbox: outbox)
        let sent = Sent()
        let logger = Logger(label: "test")
        // A row that keeps coming back at once would loop for ever: fail the test instead.
        var rounds = 0
        while try await outbox.processNextOutboxItem(now: now ?? services.now(), handle: { entry in
            guard entry.item.kind.isMessage else {
                do { return try await jobs.run(entry, logger: logger) } catch { return .failed("\(error)") }
            }
            // A message made when it is sent (a sign-in link) is made as the worker makes it.
            var entry = entry
            if entry.item.content == nil, case .send(let bytes)? = try? await messages.prepare(entry) { entry.item.content = bytes }
            await sent.add(entry)
            return .sent
        }) {
            rounds += 1
            if rounds > 500 { throw OutboxNeverEmpties() }
        }
        return await sent.entries
    }
}

extension TestServer {
    /// Outbox rows where `condition` (SQL both backends read alike) holds, in any state.
    func outboxRows(where condition: String) async throws -> Int {
        switch backend {
        case .embedded(let sqlite):
            return try sqlite.count("SELECT count(*) FROM outbox WHERE \(condition)")
        case .postgresS3(let postgres, _, _):
            var count = 0
            for try await value in try await postgres.client.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM outbox WHERE \(condition)"),
                                                                   logger: Logger(label: "test")).decode(Int.self) {
                count = value
            }
            return count
        }
    }

    /// Outbox rows addressed to `recipient`, in any state.
    func outboxRows(recipient: String) async throws -> Int {
        try await outboxRows(where: "recipient = '\(recipient.replacingOccurrences(of: "'", with: "''"))'")
    }
}

struct OutboxNeverEmpties: Error, CustomStringConvertible {
    var description: String { "the outbox handed out more than 500 rows in one drain: a row keeps coming back" }
}

private actor Sent {
    var entries: [OutboxEntry] = []
    func add(_ entry: OutboxEntry) { entries.append(entry) }
}
