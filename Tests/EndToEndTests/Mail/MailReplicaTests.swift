import Foundation
import PetSpot
import TestEngines
import Testing

/// Two replicas on one PostgreSQL database, each with its delivery worker, sending to one relay:
/// every message once, both replicas sending.
@Suite struct MailReplicaTests {
    @Test(.enabled(if: TestEngines.postgresS3IsConfigured, "replicas share a PostgreSQL database"))
    func twoReplicasSendEachMessageOnce() async throws {
        let engines = try TestEngines.shared.get()
        let database = try await engines.postgres.database("mailreplicas\(UUID().uuidString.prefix(6).lowercased())")
        let first = try await MailStack.start("mail-replica-a", environment: ["PETSPOT_DATABASE_URL": database])
        try first.sink.set(.slowAcknowledgement(seconds: 0.02))
        let second = try await MailStack.start("mail-replica-b", environment: ["PETSPOT_DATABASE_URL": database], sink: first.sink)
        let count = 24
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                let stack = index.isMultiple(of: 2) ? first : second
                group.addTask { _ = try await stack.create(["email": "\"r\(index)@example.com\""]) }
            }
            try await group.waitForAll()
        }
        try await eventually { first.sink.messageFiles().count >= count }
        try await eventually {
            let sent = try await first.mailCount("sent") + (try await second.mailCount("sent"))
            let queued = try await first.mailCount("queued") + (try await second.mailCount("queued"))
            return sent == count && queued == count
        }
        let messages = try first.messages()
        #expect(messages.count == count)
        #expect(Set(messages.compactMap { $0.mail.header("Message-ID") }).count == count, "no message twice")
        #expect(Set(messages.map { $0.envelope.rcpt_tos.joined() }).count == count)
        let byFirst = try await first.mailCount("sent"), bySecond = try await second.mailCount("sent")
        #expect(byFirst > 0 && bySecond > 0, "both replicas sent: \(byFirst) and \(bySecond)")
        #expect(first.server.stop() == 0 && second.server.stop() == 0)
    }
}
