import Logging
import PostgresNIO
import Synchronization

/// How the store gets its connections: leased from the pool within a deadline, one
/// transaction at a time.
extension PostgresAnnouncementStore {
    /// Runs `body` on a connection of the pool, which must be had within ``leaseTimeout``: while
    /// the database is down the pool keeps trying to connect (and would keep a request waiting
    /// for up to a minute); past the timeout the request gets 503 instead.
    func leased<Result: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> Result) async throws -> Result {
        let acquired = LeaseFlag()
        let client = self.client, timeout = leaseTimeout
        return try await withThrowingTaskGroup(of: Result?.self) { group in
            group.addTask {
                try await client.withConnection { connection in
                    acquired.value.withLock { $0 = true }
                    return try await body(connection)
                }
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                guard acquired.value.withLock({ $0 }) else {
                    throw StorageError.unreachable(what: "the database", reason: "no connection could be had within \(timeout)")
                }
                return nil
            }
            while let result = try await group.next() {
                if let value = result {
                    group.cancelAll()
                    return value
                }
            }
            throw CancellationError()
        }
    }

    /// ``leased(_:)`` in a transaction, rethrowing what went wrong itself rather than
    /// PostgresNIO's `PostgresTransactionError` around it: the closure's own error first (the
    /// rollback ran), else the failed BEGIN, COMMIT or ROLLBACK.
    func transaction<Result: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> Result) async throws -> Result {
        let logger = self.logger
        return try await leased { connection in
            do {
                return try await connection.withTransaction(logger: logger) { connection in try await body(connection) }
            } catch let error as PostgresTransactionError {
                throw error.closureError ?? error.beginError ?? error.commitError ?? error.rollbackError ?? error
            }
        }
    }
}

/// Whether a connection was had (set by the lease, read by its timer).
private final class LeaseFlag: Sendable {
    let value = Mutex(false)
}
