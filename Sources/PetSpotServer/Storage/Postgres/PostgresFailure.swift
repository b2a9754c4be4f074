import PostgresNIO
import Synchronization
import Logging

/// What a PostgresNIO error means for a request: the database cannot be reached or is
/// shutting down (503, try again), or a fault of ours (500).
enum PostgresFailure {
    /// SQLSTATE classes that say "not now" rather than "never": connection exceptions (08),
    /// insufficient resources (53), operator intervention such as a restart or a statement
    /// timeout (57), system errors (58), serialization failures or deadlocks (40), and a lock
    /// not had in time (55, `lock_timeout`).
    static let transientClasses: Set<String> = ["08", "40", "53", "55", "57", "58"]
    /// A read-only transaction (a failover left us on a standby).
    static let transientStates: Set<String> = ["25006"]

    static func storageError(_ error: PSQLError) -> any Error {
        if error.code == .server {
            let state = error.serverInfo?[.sqlState] ?? "?????"
            let message = error.serverInfo?[.message] ?? ""
            guard transientClasses.contains(String(state.prefix(2))) || transientStates.contains(state) else {
                return DatabaseFault(sqlState: state, message: String(message.prefix(200)))
            }
            return StorageError.unreachable(what: "the database", reason: "PostgreSQL \(state): \(message.prefix(200))")
        }
        // Connections that fail, close or time out: the pool reconnects on its own.
        return StorageError.unreachable(what: "the database", reason: "PostgreSQL connection: \(error.code)")
    }
}

/// A statement the database refused for a reason retrying will not change (a bug or a schema
/// changed by hand): logged with its SQLSTATE, answered 500.
struct DatabaseFault: Error, CustomStringConvertible {
    let sqlState: String
    let message: String

    var description: String { "PostgreSQL refused a statement: \(sqlState) \(message)" }
}

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

    /// Runs one statement and reads its rows to the end.
    func execute(_ query: PostgresQuery) async throws {
        let logger = self.logger
        try await leased { connection in try await connection.query(query, logger: logger).collectAll() }
    }
}

/// Whether a connection was had (set by the lease, read by its timer).
private final class LeaseFlag: Sendable {
    let value = Mutex(false)
}
