import Foundation
import Logging
import NIOCore
import PetSpot
import PostgresNIO

/// The outbox in PostgreSQL, shared by every replica: a row is claimed with
/// `FOR UPDATE SKIP LOCKED` in a transaction held while it is handled and its outcome recorded,
/// so two replicas never take the same row, and one that dies mid-send releases it (its
/// connection ends) to be sent again, with the same Message-ID, by whichever replica comes next.
extension PostgresAnnouncementStore: OutboxStoring {
    public func processNextOutboxItem(now: Date, handle: @escaping @Sendable (OutboxEntry) async -> OutboxOutcome) async throws -> Bool {
        let written: Int? = try await mapped { try await transaction { connection in
            var claimed: OutboxEntry?
            for try await row in try await connection.query("""
                SELECT \(unescaped: OutboxSchema.entryColumns) FROM outbox
                WHERE state = 'queued' AND due_at <= \(now.timeIntervalSince1970)
                ORDER BY due_at, id LIMIT 1 FOR UPDATE SKIP LOCKED
                """, logger: self.logger) where claimed == nil {
                claimed = try PostgresOutbox.entry(row.makeRandomAccess())
            }
            guard let claimed else { return nil }
            let outcome = await handle(claimed)
            return try await PostgresOutbox.record(outcome, of: claimed, now: now, on: connection, logger: self.logger)
        } }
        guard let written else { return false }
        MailMetrics.queued(written)
        return true
    }

    /// The soonest row another replica is not handling: one claimed elsewhere (locked while it is
    /// sent, up to libcurl's timeout) is not due here, or the worker would poll it in a loop.
    public func nextOutboxDue() async throws -> Date? {
        try await mapped { try await leased { connection in
            var due: Double?
            for try await value in try await connection.query("""
                SELECT due_at FROM outbox WHERE state = 'queued' ORDER BY due_at, id LIMIT 1 FOR UPDATE SKIP LOCKED
                """, logger: self.logger).decode(Double.self) {
                due = value
            }
            return due.map(Date.init(timeIntervalSince1970:))
        } }
    }

    /// Row locks end with their connection: nothing to release.
    public func releaseOutboxClaims() async throws {}

    public func purgeOutbox(finishedBefore: Date, onceKeysBefore: Date, unconfirmedBefore: Date) async throws {
        try await mapped { try await leased { connection in
            try await connection.query("DELETE FROM outbox WHERE finished_at < \(finishedBefore.timeIntervalSince1970)",
                                       logger: self.logger).collectAll()
            try await connection.query("DELETE FROM outbox_once WHERE at < \(onceKeysBefore.timeIntervalSince1970)", logger: self.logger).collectAll()
            try await connection.query("""
                DELETE FROM alert_subscription WHERE confirmed_at IS NULL AND created_at < \(unconfirmedBefore.timeIntervalSince1970)
                """, logger: self.logger).collectAll()
        } }
    }

    public func queueMail(_ items: [OutboxItem], now: Date) async throws -> Int {
        let written = try await mapped { try await transaction { connection in
            try await PostgresOutbox.insert(items, now: now, on: connection, logger: self.logger).written
        } }
        MailMetrics.queued(written)
        return written
    }

    public func turnOffMatchMail(announcementID: String, at date: Date) async throws {
        try await mapped { try await transaction { connection in
            try await connection.query("""
                INSERT INTO match_mail_off (announcement_id, at) VALUES (\(announcementID), \(date.timeIntervalSince1970))
                ON CONFLICT (announcement_id) DO NOTHING
                """, logger: self.logger).collectAll()
            try await connection.query("""
                DELETE FROM outbox WHERE kind = \(OutboxItem.Kind.possibleMatch.rawValue) AND announcement_id = \(announcementID)
                    AND state = 'queued'
                """, logger: self.logger).collectAll()
        } }
    }

    public func isMatchMailOff(announcementID: String) async throws -> Bool {
        try await mapped { try await leased { connection in
            var off = false
            for try await value in try await connection.query(
                "SELECT EXISTS (SELECT 1 FROM match_mail_off WHERE announcement_id = \(announcementID))", logger: self.logger).decode(Bool.self) {
                off = value
            }
            return off
        } }
    }

    // MARK: area subscriptions

    public func addSubscription(_ subscription: AlertSubscription, confirmation: OutboxItem, now: Date) async throws -> Bool {
        let written = try await mapped { try await transaction { connection in
            // No confirmation (the address had one today): no subscription either, which nothing could confirm.
            let written = try await PostgresOutbox.insert([confirmation], now: now, on: connection, logger: self.logger).written
            guard written > 0 else { return 0 }
            try await connection.query("""
                INSERT INTO alert_subscription (\(unescaped: OutboxSchema.subscriptionColumns))
                VALUES (\(subscription.id), \(subscription.email), \(subscription.latitude), \(subscription.longitude),
                        \(subscription.radiusKm), \(subscription.place), \(subscription.species?.rawValue), \(subscription.status?.rawValue),
                        \(subscription.cadence.rawValue), \(subscription.createdAt.timeIntervalSince1970),
                        \(subscription.confirmedAt?.timeIntervalSince1970), \(subscription.digestAfter.timeIntervalSince1970))
                """, logger: self.logger).collectAll()
            return written
        } }
        MailMetrics.queued(written)
        return written > 0
    }

    public func subscription(id: String) async throws -> AlertSubscription? {
        try await mapped { try await leased { connection in
            try await PostgresOutbox.subscriptions(try await connection.query(
                "SELECT \(unescaped: OutboxSchema.subscriptionColumns) FROM alert_subscription WHERE id = \(id)", logger: self.logger)).first
        } }
    }

    public func confirmSubscription(id: String, at date: Date) async throws -> AlertSubscription? {
        try await mapped { try await transaction { connection in
            let at = date.timeIntervalSince1970
            try await connection.query("""
                UPDATE alert_subscription SET confirmed_at = \(at), digest_after = \(at) WHERE id = \(id) AND confirmed_at IS NULL
                """, logger: self.logger).collectAll()
            return try await PostgresOutbox.subscriptions(try await connection.query(
                "SELECT \(unescaped: OutboxSchema.subscriptionColumns) FROM alert_subscription WHERE id = \(id)", logger: self.logger)).first
        } }
    }

    public func removeSubscription(id: String) async throws -> Bool {
        try await mapped { try await transaction { connection in
            var existed = false
            for try await _ in try await connection.query("DELETE FROM alert_subscription WHERE id = \(id) RETURNING id", logger: self.logger) {
                existed = true
            }
            try await connection.query("DELETE FROM outbox WHERE related_id = \(id)", logger: self.logger).collectAll()
            try await connection.query("DELETE FROM outbox_once WHERE key LIKE \("alert:\(id):%")", logger: self.logger).collectAll()
            return existed
        } }
    }

    public func confirmedSubscriptions(nearLatitude latitude: Double, longitude: Double, radiusKm: Double) async throws -> [AlertSubscription] {
        let box = NearSearch(latitude: latitude, longitude: longitude, radiusKm: radiusKm, filter: .all).box
        return try await mapped { try await leased { connection in
            var found: [AlertSubscription] = []
            for longitudes in box.longitude {
                found += try await PostgresOutbox.subscriptions(try await connection.query("""
                    SELECT \(unescaped: OutboxSchema.subscriptionColumns) FROM alert_subscription
                    WHERE confirmed_at IS NOT NULL AND latitude BETWEEN \(box.latitude.lowerBound) AND \(box.latitude.upperBound)
                      AND longitude BETWEEN \(longitudes.lowerBound) AND \(longitudes.upperBound)
                    """, logger: self.logger))
            }
            return found
        } }
    }

    public func dueDigests(before: Date, limit: Int) async throws -> [AlertSubscription] {
        try await mapped { try await leased { connection in
            try await PostgresOutbox.subscriptions(try await connection.query("""
                SELECT \(unescaped: OutboxSchema.subscriptionColumns) FROM alert_subscription
                WHERE confirmed_at IS NOT NULL AND cadence = 'daily' AND digest_after < \(before.timeIntervalSince1970)
                ORDER BY digest_after LIMIT \(limit)
                """, logger: self.logger))
        } }
    }

    public func recordDigest(subscriptionID: String, from: Date, to: Date, message: OutboxItem?, now: Date) async throws -> Bool {
        let written: Int? = try await mapped { try await transaction { connection in
            var moved = false
            for try await _ in try await connection.query("""
                UPDATE alert_subscription SET digest_after = \(to.timeIntervalSince1970)
                WHERE id = \(subscriptionID) AND digest_after = \(from.timeIntervalSince1970) RETURNING id
                """, logger: self.logger) {
                moved = true
            }
            guard moved else { return nil }
            guard let message else { return 0 }
            return try await PostgresOutbox.insert([message], now: now, on: connection, logger: self.logger).written
        } }
        MailMetrics.queued(written ?? 0)
        return written != nil
    }
}

/// Outbox rows inside a transaction of PostgreSQL: what the stores' own changes and any later
/// one (a message written with a change of another kind) call.
enum PostgresOutbox {
    /// Writes `items` on `connection`'s transaction, as ``SQLiteOutbox/insert(_:now:in:)``: a
    /// cap is counted under a transaction-level advisory lock on its scope, so replicas together
    /// write no more than one would.
    static func insert(_ items: [OutboxItem], now: Date, on connection: PostgresConnection,
                       logger: Logger) async throws -> (written: Int, deferred: Bool) {
        var written = 0
        var deferred = false
        // Each cap's lock taken in one order (by its key), so two transactions never wait on each other's.
        items: for item in items {
            for cap in item.caps.sorted(by: { "\($0.scope.countedColumn)" < "\($1.scope.countedColumn)" }) {
                let (column, value) = cap.scope.countedColumn
                try await connection.query("SELECT pg_advisory_xact_lock(hashtextextended(\("\(item.kind.rawValue):\(column):\(value)"), 4))",
                                           logger: logger).collectAll()
                var count = 0
                for try await rows in try await connection.query("""
                    SELECT count(*) FROM outbox WHERE kind = \(item.kind.rawValue) AND \(unescaped: column) = \(value)
                    AND created_at >= \(cap.since.timeIntervalSince1970)
                    """, logger: logger).decode(Int.self) {
                    count = rows
                }
                if count >= cap.limit {
                    deferred = deferred || cap.deferWhenCapped
                    continue items
                }
            }
            if let key = item.onceKey {
                var inserted = false
                for try await _ in try await connection.query("""
                    INSERT INTO outbox_once (key, at) VALUES (\(key), \(now.timeIntervalSince1970)) ON CONFLICT (key) DO NOTHING RETURNING key
                    """, logger: logger) {
                    inserted = true
                }
                if !inserted { continue }
            }
            try await connection.query("""
                INSERT INTO outbox (kind, recipient, message_id, content, announcement_id, related_id, created_at, due_at)
                VALUES (\(item.kind.rawValue), \(item.recipient), \(item.messageID), \(item.content.map { ByteBuffer(bytes: $0) }),
                        \(item.announcementID), \(item.relatedID), \(now.timeIntervalSince1970), \(item.dueAt.timeIntervalSince1970))
                """, logger: logger).collectAll()
            if item.kind.isMessage { written += 1 }
        }
        return (written, deferred)
    }

    /// Records what became of a claimed row. - Returns: the messages a finished job wrote.
    static func record(_ outcome: OutboxOutcome, of entry: OutboxEntry, now: Date, on connection: PostgresConnection,
                       logger: Logger) async throws -> Int {
        let at = now.timeIntervalSince1970
        switch outcome {
        case .sent:
            try await connection.query("""
                UPDATE outbox SET state = 'sent', content = NULL, attempts = attempts + 1, finished_at = \(at), last_error = NULL
                WHERE id = \(entry.id)
                """, logger: logger).collectAll()
        case .retry(let due, let reason):
            try await connection.query("""
                UPDATE outbox SET attempts = attempts + 1, due_at = \(due.timeIntervalSince1970), last_error = \(String(reason.prefix(500)))
                WHERE id = \(entry.id)
                """, logger: logger).collectAll()
        case .failed(let reason), .cancelled(let reason):
            let failed = if case .failed = outcome { true } else { false }
            try await connection.query("""
                UPDATE outbox SET state = \(failed ? "failed" : "cancelled"), content = NULL, attempts = attempts + \(failed ? 1 : 0),
                    finished_at = \(at), last_error = \(String(reason.prefix(500)))
                WHERE id = \(entry.id)
                """, logger: logger).collectAll()
        case .done(let adding, let again):
            let (written, deferred) = try await insert(adding, now: now, on: connection, logger: logger)
            if deferred || again != nil {
                let next = again ?? now.addingTimeInterval(OutboxJobs.cappedRetry)
                try await connection.query("UPDATE outbox SET due_at = \(next.timeIntervalSince1970) WHERE id = \(entry.id)",
                                           logger: logger).collectAll()
            } else {
                try await connection.query("DELETE FROM outbox WHERE id = \(entry.id)", logger: logger).collectAll()
            }
            return written
        }
        return 0
    }

    static func entry(_ row: PostgresRandomAccessRow) throws -> OutboxEntry {
        let kindText = try row["kind"].decode(String.self)
        guard let kind = OutboxItem.Kind(rawValue: kindText) else { throw StorageError.damagedRow("outbox \(kindText)") }
        let content = try row["content"].decode(ByteBuffer?.self)
        return OutboxEntry(
            id: try row["id"].decode(Int64.self),
            item: OutboxItem(kind: kind, recipient: try row["recipient"].decode(String?.self), messageID: try row["message_id"].decode(String?.self),
                             content: content.flatMap { buffer in buffer.getBytes(at: buffer.readerIndex, length: buffer.readableBytes) },
                             announcementID: try row["announcement_id"].decode(String?.self), relatedID: try row["related_id"].decode(String?.self),
                             dueAt: Date(timeIntervalSince1970: try row["due_at"].decode(Double.self))),
            attempts: try row["attempts"].decode(Int.self), createdAt: Date(timeIntervalSince1970: try row["created_at"].decode(Double.self)))
    }

    static func subscriptions(_ rows: PostgresRowSequence) async throws -> [AlertSubscription] {
        var found: [AlertSubscription] = []
        for try await row in rows {
            let access = row.makeRandomAccess()
            found.append(AlertSubscription(
                id: try access["id"].decode(String.self), email: try access["email"].decode(String.self),
                latitude: try access["latitude"].decode(Double.self), longitude: try access["longitude"].decode(Double.self),
                radiusKm: try access["radius_km"].decode(Double.self), place: try access["place"].decode(String.self),
                species: try access["species"].decode(String?.self).flatMap(Species.init(rawValue:)),
                status: try access["status"].decode(String?.self).flatMap(AnnouncementStatus.init(rawValue:)),
                cadence: AlertSubscription.Cadence(rawValue: try access["cadence"].decode(String.self)) ?? .daily,
                createdAt: Date(timeIntervalSince1970: try access["created_at"].decode(Double.self)),
                confirmedAt: try access["confirmed_at"].decode(Double?.self).map(Date.init(timeIntervalSince1970:)),
                digestAfter: Date(timeIntervalSince1970: try access["digest_after"].decode(Double.self))))
        }
        return found
    }
}
