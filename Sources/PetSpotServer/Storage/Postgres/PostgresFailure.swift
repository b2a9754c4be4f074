import PostgresNIO

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
