import Foundation
import GRDB
import PetSpot

/// The outbox in SQLite: rows written inside the transaction of the event that causes them
/// (``SQLiteOutbox/insert(_:now:in:)``), claimed by a lease, recorded when handled.
extension SQLiteAnnouncementStore: OutboxStoring {
    /// How long a claim holds a row: longer than any send (libcurl's 60 s) or piece of work.
    static let outboxLease: TimeInterval = 600

    public func processNextOutboxItem(now: Date, handle: @escaping @Sendable (OutboxEntry) async -> OutboxOutcome) async throws -> Bool {
        let token = UUID().uuidString
        let claimed = try await pool.write { db -> OutboxEntry? in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT \(OutboxSchema.entryColumns) FROM outbox
                WHERE state = 'queued' AND due_at <= ? AND (lease_until IS NULL OR lease_until < ?)
                ORDER BY due_at, id LIMIT 1
                """, arguments: [now.timeIntervalSince1970, Date().timeIntervalSince1970]) else { return nil }
            let entry = try SQLiteOutbox.entry(row)
            try db.execute(sql: "UPDATE outbox SET lease_until = ?, lease_token = ? WHERE id = ?",
                           arguments: [Date().timeIntervalSince1970 + Self.outboxLease, token, entry.id])
            return entry
        }
        guard let claimed else { return false }
        let outcome = await handle(claimed)
        let written = try await pool.write { db -> Int in
            // A claim that ran out was taken over: its new holder records the outcome.
            guard try String.fetchOne(db, sql: "SELECT lease_token FROM outbox WHERE id = ?", arguments: [claimed.id]) == token else { return 0 }
            return try SQLiteOutbox.record(outcome, of: claimed, now: now, in: db)
        }
        MailMetrics.queued(written)
        return true
    }

    public func nextOutboxDue() async throws -> Date? {
        try await pool.read { db in
            try Double.fetchOne(db, sql: "SELECT min(max(due_at, coalesce(lease_until, 0))) FROM outbox WHERE state = 'queued'")
                .map(Date.init(timeIntervalSince1970:))
        }
    }

    public func releaseOutboxClaims() async throws {
        try await pool.write { db in
            try db.execute(sql: "UPDATE outbox SET lease_until = NULL, lease_token = NULL WHERE lease_token IS NOT NULL")
        }
    }

    public func purgeOutbox(finishedBefore: Date, onceKeysBefore: Date, unconfirmedBefore: Date) async throws {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM outbox WHERE finished_at IS NOT NULL AND finished_at < ?", arguments: [finishedBefore.timeIntervalSince1970])
            try db.execute(sql: "DELETE FROM outbox_once WHERE at < ?", arguments: [onceKeysBefore.timeIntervalSince1970])
            try db.execute(sql: "DELETE FROM alert_subscription WHERE confirmed_at IS NULL AND created_at < ?",
                           arguments: [unconfirmedBefore.timeIntervalSince1970])
        }
    }

    public func queueMail(_ items: [OutboxItem], now: Date) async throws -> Int {
        let written = try await pool.write { db in try SQLiteOutbox.insert(items, now: now, in: db).written }
        MailMetrics.queued(written)
        return written
    }

    public func turnOffMatchMail(announcementID: String, at date: Date) async throws {
        try await pool.write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO match_mail_off (announcement_id, at) VALUES (?, ?)",
                           arguments: [announcementID, date.timeIntervalSince1970])
            try db.execute(sql: "DELETE FROM outbox WHERE kind = ? AND announcement_id = ? AND state = 'queued'",
                           arguments: [OutboxItem.Kind.possibleMatch.rawValue, announcementID])
        }
    }

    public func isMatchMailOff(announcementID: String) async throws -> Bool {
        try await pool.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM match_mail_off WHERE announcement_id = ?)", arguments: [announcementID]) ?? false
        }
    }

    // MARK: area subscriptions

    public func addSubscription(_ subscription: AlertSubscription, confirmation: OutboxItem, now: Date) async throws -> Bool {
        let written = try await pool.write { db -> Int in
            // No confirmation (the address had one today): no subscription either, which nothing could confirm.
            let written = try SQLiteOutbox.insert([confirmation], now: now, in: db).written
            guard written > 0 else { return 0 }
            try db.execute(sql: """
                INSERT INTO alert_subscription (\(OutboxSchema.subscriptionColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: SQLiteOutbox.arguments(subscription))
            return written
        }
        MailMetrics.queued(written)
        return written > 0
    }

    public func subscription(id: String) async throws -> AlertSubscription? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT \(OutboxSchema.subscriptionColumns) FROM alert_subscription WHERE id = ?", arguments: [id])
                .map(SQLiteOutbox.subscription)
        }
    }

    public func confirmSubscription(id: String, at date: Date) async throws -> AlertSubscription? {
        try await pool.write { db in
            try db.execute(sql: "UPDATE alert_subscription SET confirmed_at = ?, digest_after = ? WHERE id = ? AND confirmed_at IS NULL",
                           arguments: [date.timeIntervalSince1970, date.timeIntervalSince1970, id])
            return try Row.fetchOne(db, sql: "SELECT \(OutboxSchema.subscriptionColumns) FROM alert_subscription WHERE id = ?", arguments: [id])
                .map(SQLiteOutbox.subscription)
        }
    }

    public func removeSubscription(id: String) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM alert_subscription WHERE id = ?", arguments: [id])
            let existed = db.changesCount > 0
            try db.execute(sql: "DELETE FROM outbox WHERE related_id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM outbox_once WHERE key LIKE ?", arguments: ["alert:\(id):%"])
            return existed
        }
    }

    public func confirmedSubscriptions(nearLatitude latitude: Double, longitude: Double, radiusKm: Double) async throws -> [AlertSubscription] {
        let box = NearSearch(latitude: latitude, longitude: longitude, radiusKm: radiusKm, filter: .all).box
        return try await pool.read { db in
            var found: [AlertSubscription] = []
            for longitudes in box.longitude {
                found += try Row.fetchAll(db, sql: """
                    SELECT \(OutboxSchema.subscriptionColumns) FROM alert_subscription
                    WHERE confirmed_at IS NOT NULL AND latitude BETWEEN ? AND ? AND longitude BETWEEN ? AND ?
                    """, arguments: [box.latitude.lowerBound, box.latitude.upperBound, longitudes.lowerBound, longitudes.upperBound])
                    .map(SQLiteOutbox.subscription)
            }
            return found
        }
    }

    public func dueDigests(before: Date, limit: Int) async throws -> [AlertSubscription] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT \(OutboxSchema.subscriptionColumns) FROM alert_subscription
                WHERE confirmed_at IS NOT NULL AND cadence = 'daily' AND digest_after < ? ORDER BY digest_after LIMIT ?
                """, arguments: [before.timeIntervalSince1970, limit]).map(SQLiteOutbox.subscription)
        }
    }

    public func recordDigest(subscriptionID: String, from: Date, to: Date, message: OutboxItem?, now: Date) async throws -> Bool {
        let (moved, written) = try await pool.write { db -> (Bool, Int) in
            try db.execute(sql: "UPDATE alert_subscription SET digest_after = ? WHERE id = ? AND digest_after = ?",
                           arguments: [to.timeIntervalSince1970, subscriptionID, from.timeIntervalSince1970])
            guard db.changesCount == 1 else { return (false, 0) }
            return (true, try message.map { try SQLiteOutbox.insert([$0], now: now, in: db).written } ?? 0)
        }
        MailMetrics.queued(written)
        return moved
    }
}

/// Outbox rows inside a transaction of SQLite: what the stores' own changes and any later one
/// (a message written with a change of another kind) call.
enum SQLiteOutbox {
    /// Writes `items` in `db`'s transaction: an item past its cap is left out (and reported
    /// `deferred` when it asks to be), one whose once-key was written before is left out.
    /// - Returns: the messages written, and whether a capped item wants its job run again.
    static func insert(_ items: [OutboxItem], now: Date, in db: Database) throws -> (written: Int, deferred: Bool) {
        var written = 0
        var deferred = false
        items: for item in items {
            for cap in item.caps {
                let (column, value) = cap.scope.countedColumn
                let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM outbox WHERE kind = ? AND \(column) = ? AND created_at >= ?",
                                             arguments: [item.kind.rawValue, value, cap.since.timeIntervalSince1970]) ?? 0
                if count >= cap.limit {
                    deferred = deferred || cap.deferWhenCapped
                    continue items
                }
            }
            if let key = item.onceKey {
                try db.execute(sql: "INSERT OR IGNORE INTO outbox_once (key, at) VALUES (?, ?)", arguments: [key, now.timeIntervalSince1970])
                if db.changesCount == 0 { continue }
            }
            try db.execute(sql: """
                INSERT INTO outbox (kind, recipient, message_id, content, announcement_id, related_id, created_at, due_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [item.kind.rawValue, item.recipient, item.messageID, item.content.map { Data($0) },
                                 item.announcementID, item.relatedID, now.timeIntervalSince1970, item.dueAt.timeIntervalSince1970])
            if item.kind.isMessage { written += 1 }
        }
        return (written, deferred)
    }

    /// Records what became of a claimed row. - Returns: the messages a finished job wrote.
    static func record(_ outcome: OutboxOutcome, of entry: OutboxEntry, now: Date, in db: Database) throws -> Int {
        let at = now.timeIntervalSince1970
        switch outcome {
        case .sent:
            try db.execute(sql: """
                UPDATE outbox SET state = 'sent', content = NULL, attempts = attempts + 1, finished_at = ?, last_error = NULL,
                    lease_until = NULL, lease_token = NULL WHERE id = ?
                """, arguments: [at, entry.id])
        case .retry(let due, let reason):
            try db.execute(sql: """
                UPDATE outbox SET attempts = attempts + 1, due_at = ?, last_error = ?, lease_until = NULL, lease_token = NULL WHERE id = ?
                """, arguments: [due.timeIntervalSince1970, String(reason.prefix(500)), entry.id])
        case .failed(let reason), .cancelled(let reason):
            let state = if case .failed = outcome { "failed" } else { "cancelled" }
            try db.execute(sql: """
                UPDATE outbox SET state = ?, content = NULL, attempts = attempts + ?, finished_at = ?, last_error = ?,
                    lease_until = NULL, lease_token = NULL WHERE id = ?
                """, arguments: [state, state == "failed" ? 1 : 0, at, String(reason.prefix(500)), entry.id])
        case .done(let adding, let again):
            let (written, deferred) = try insert(adding, now: now, in: db)
            if deferred || again != nil {
                let next = again ?? now.addingTimeInterval(OutboxJobs.cappedRetry)
                try db.execute(sql: "UPDATE outbox SET due_at = ?, lease_until = NULL, lease_token = NULL WHERE id = ?",
                               arguments: [next.timeIntervalSince1970, entry.id])
            } else {
                try db.execute(sql: "DELETE FROM outbox WHERE id = ?", arguments: [entry.id])
            }
            return written
        }
        return 0
    }

    static func entry(_ row: Row) throws -> OutboxEntry {
        let kindText: String = row["kind"]
        guard let kind = OutboxItem.Kind(rawValue: kindText) else { throw StorageError.damagedRow("outbox \(kindText)") }
        let content: Data? = row["content"]
        return OutboxEntry(
            id: row["id"],
            item: OutboxItem(kind: kind, recipient: row["recipient"], messageID: row["message_id"], content: content.map { [UInt8]($0) },
                             announcementID: row["announcement_id"], relatedID: row["related_id"],
                             dueAt: Date(timeIntervalSince1970: row["due_at"])),
            attempts: row["attempts"], createdAt: Date(timeIntervalSince1970: row["created_at"]))
    }

    static func subscription(_ row: Row) -> AlertSubscription {
        let species: String? = row["species"], status: String? = row["status"], cadence: String = row["cadence"]
        let confirmed: Double? = row["confirmed_at"]
        return AlertSubscription(
            id: row["id"], email: row["email"], latitude: row["latitude"], longitude: row["longitude"], radiusKm: row["radius_km"],
            place: row["place"], species: species.flatMap(Species.init(rawValue:)), status: status.flatMap(AnnouncementStatus.init(rawValue:)),
            cadence: AlertSubscription.Cadence(rawValue: cadence) ?? .daily, createdAt: Date(timeIntervalSince1970: row["created_at"]),
            confirmedAt: confirmed.map(Date.init(timeIntervalSince1970:)), digestAfter: Date(timeIntervalSince1970: row["digest_after"]))
    }

    static func arguments(_ subscription: AlertSubscription) -> StatementArguments {
        [subscription.id, subscription.email, subscription.latitude, subscription.longitude, subscription.radiusKm, subscription.place,
         subscription.species?.rawValue, subscription.status?.rawValue, subscription.cadence.rawValue,
         subscription.createdAt.timeIntervalSince1970, subscription.confirmedAt?.timeIntervalSince1970,
         subscription.digestAfter.timeIntervalSince1970]
    }
}
