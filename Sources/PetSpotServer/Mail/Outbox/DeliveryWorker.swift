import Foundation
import Logging
import Mail
import PetSpot
import ServiceLifecycle

/// The mail worker every replica runs: it claims the outbox's due rows one at a time (any
/// replica may take any row; a claimed row is no other's), delivers messages to the relay and
/// runs the work events left, records what happened, and otherwise waits — until this replica
/// queues something, the next row is due, or ``MailSettings/pollInterval`` passes (for rows
/// other replicas queued). Once a minute it also writes the daily digests that are due.
///
/// A message the relay defers (4xx, unreachable, broken off) is tried again on the
/// ``RetrySchedule`` until a day has passed; a 5xx is final. A match mail whose reports closed
/// meanwhile, or whose owner turned it off, is cancelled instead of sent. On shutdown the row in
/// hand is finished and recorded, then the worker stops.
struct DeliveryWorker: Service {
    let services: ServerServices
    let outbox: any OutboxStoring
    let mailer: Mailer
    let transport: SMTPTransport
    let logger: Logger
    var digestInterval: Duration = .seconds(60)

    private var jobs: OutboxJobs { OutboxJobs(services: services, mailer: mailer, outbox: outbox) }

    func run() async throws {
        await withGracefulShutdownHandler {
            await loop()
        } onGracefulShutdown: {
            mailer.signal.stop()
        }
    }

    private func loop() async {
        do {
            try await outbox.releaseOutboxClaims()
        } catch {
            logger.warning("mail: earlier claims could not be released, they end on their own: \(error)")
        }
        var nextDigests = ContinuousClock.now
        while !mailer.signal.isStopping {
            do {
                var handled = 0
                while !mailer.signal.isStopping, handled < 200,
                      try await outbox.processNextOutboxItem(now: services.now(), handle: { entry in await self.handle(entry) }) {
                    handled += 1
                }
                if ContinuousClock.now >= nextDigests {
                    nextDigests = ContinuousClock.now + digestInterval
                    try await AreaDigests(services: services, mailer: mailer, outbox: outbox).runDue(now: services.now(), logger: logger)
                }
                if handled == 200 { continue }
                var wait = mailer.settings.pollInterval
                if let due = try await outbox.nextOutboxDue() {
                    let until = Duration.milliseconds(Int64(max(0, due.timeIntervalSinceNow) * 1000) + 5)
                    wait = min(wait, until)
                }
                await mailer.signal.wait(upTo: wait)
            } catch {
                logger.warning("mail: the outbox cannot be read now, trying again shortly: \(error)")
                await mailer.signal.wait(upTo: mailer.settings.pollInterval)
            }
        }
    }

    func handle(_ entry: OutboxEntry) async -> OutboxOutcome {
        guard entry.item.kind.isMessage else {
            do {
                return try await jobs.run(entry, logger: logger)
            } catch {
                logger.warning("mail: \(entry.item.kind.rawValue) for \(entry.item.announcementID ?? "-") failed, tried again later: \(error)")
                return retryOrGiveUp(entry, reason: "\(error)")
            }
        }
        return await deliver(entry)
    }

    private func deliver(_ entry: OutboxEntry) async -> OutboxOutcome {
        let item = entry.item
        guard let address = item.recipient, let recipient = try? MailAddress(address) else {
            return .failed("nothing to send: no usable address")
        }
        let content: [UInt8]
        do {
            switch try await OutboxMessages(services: services, mailer: mailer, outbox: outbox).prepare(entry) {
            case .send(let bytes):
                content = bytes
            case .cancel(let reason):
                MailMetrics.count(.cancelled)
                return .cancelled(reason)
            }
        } catch {
            return retryOrGiveUp(entry, reason: "\(error)")
        }
        switch await transport.send(content, from: mailer.sender, to: recipient) {
        case .accepted:
            MailMetrics.delivered(after: services.now().timeIntervalSince(entry.createdAt))
            return .sent
        case .rejected(let reason):
            logger.warning("mail: \(item.kind.rawValue) \(item.messageID ?? "") refused by the relay, not tried again: \(reason)")
            MailMetrics.count(.failed)
            return .failed(reason)
        case .deferred(let reason):
            logger.notice("mail: \(item.kind.rawValue) \(item.messageID ?? "") deferred: \(reason)")
            return retryOrGiveUp(entry, reason: reason)
        }
    }

    func retryOrGiveUp(_ entry: OutboxEntry, reason: String) -> OutboxOutcome {
        if let next = mailer.settings.retry.nextAttempt(afterAttempts: entry.attempts + 1, queuedAt: entry.createdAt, now: services.now()) {
            if entry.item.kind.isMessage { MailMetrics.count(.retried) }
            return .retry(at: next, reason: reason)
        }
        logger.warning("mail: \(entry.item.kind.rawValue) \(entry.item.messageID ?? "") given up after \(entry.attempts + 1) attempts: \(reason)")
        if entry.item.kind.isMessage { MailMetrics.count(.failed) }
        return .failed("given up after \(entry.attempts + 1) attempts: \(reason)")
    }
}
