import Logging
import ServiceLifecycle

/// Closes the database after the HTTP server has stopped (services shut down in reverse order,
/// and the application lists the server after this one), so requests in flight finish first;
/// then lets go of the data directory's lock.
struct StoreShutdownService: Service {
    let store: SQLiteAnnouncementStore
    /// Held until the database is closed.
    let lock: DataDirectoryLock
    let logger: Logger

    func run() async throws {
        try? await gracefulShutdown()
        do {
            try store.close()
            logger.info("database closed")
        } catch {
            logger.error("closing the database failed: \(error)")
        }
        withExtendedLifetime(lock) {}
    }
}
