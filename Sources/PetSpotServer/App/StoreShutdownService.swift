import Logging
import ServiceLifecycle

/// Closes the embedded database after the HTTP server has stopped (services shut down in
/// reverse order, and the application lists the server after this one), so requests in flight
/// finish first; then lets go of the data directory's lock.
struct StoreShutdownService: Service {
    /// Closes the store (`nil` when a service of its own, such as the PostgreSQL pool, does).
    let close: (@Sendable () throws -> Void)?
    /// Held until the database is closed.
    let lock: DataDirectoryLock
    let logger: Logger

    func run() async throws {
        try? await gracefulShutdown()
        if let close {
            do {
                try close()
                logger.info("database closed")
            } catch {
                logger.error("closing the database failed: \(error)")
            }
        }
        withExtendedLifetime(lock) {}
    }
}
