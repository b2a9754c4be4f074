import Logging
import ServiceLifecycle
import Synchronization

/// SIGTERM/SIGINT: requests in flight get `--shutdown-grace`, then are cut; exit 0 either way.
enum GracefulShutdown {
    /// Runs until SIGTERM/SIGINT, then gives requests in flight `grace` seconds before
    /// cancelling them; a shutdown that had to cut requests still exits 0, and says so.
    static func run(_ app: some Service, grace: Int, logger: Logger) async throws {
        let notice = ShutdownNotice(grace: grace, logger: logger)
        // Services stop in reverse order: the notice first, at the signal, then the server.
        var configuration = ServiceGroupConfiguration(services: [app, notice], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        configuration.maximumGracefulShutdownDuration = .seconds(grace)
        configuration.maximumCancellationDuration = .seconds(10)
        do {
            try await ServiceGroup(configuration: configuration).run()
        } catch is CancellationError {
            // Cancelled after the grace: reported below like any cut shutdown.
        }
        if let began = notice.began, ContinuousClock.now - began >= .seconds(grace) {
            logger.notice("requests still in flight after the \(grace) s shutdown grace were cut")
        }
    }

}


/// Logs the start of a graceful shutdown and remembers when it began.
final class ShutdownNotice: Service, Sendable {
    let grace: Int
    let logger: Logger
    private let start = Mutex<ContinuousClock.Instant?>(nil)

    init(grace: Int, logger: Logger) {
        self.grace = grace
        self.logger = logger
    }

    var began: ContinuousClock.Instant? { start.withLock { $0 } }

    func run() async throws {
        try? await gracefulShutdown()
        start.withLock { $0 = .now }
        logger.notice("stopping: requests in flight get up to \(grace) s to finish")
    }
}
