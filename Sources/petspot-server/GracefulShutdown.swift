import Logging
import ServiceLifecycle
import Synchronization

/// SIGTERM/SIGINT: requests in flight get `--shutdown-grace`, then are cut; exit 0 either way.
enum GracefulShutdown {
    /// Runs until SIGTERM/SIGINT, then gives requests in flight `grace` seconds before
    /// cancelling them; a shutdown that had to cut requests still exits 0, and says so.
    static func run(_ app: some Service, grace: Int, logger: Logger) async throws {
        let notice = ShutdownNotice(grace: grace, logger: logger)
        let server = CancellationWatch(app)
        // Services stop in reverse order: the notice first, at the signal, then the server.
        var configuration = ServiceGroupConfiguration(services: [server, notice], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        configuration.maximumGracefulShutdownDuration = .seconds(grace)
        configuration.maximumCancellationDuration = .seconds(10)
        do {
            try await ServiceGroup(configuration: configuration).run()
        } catch is CancellationError {
            // Cancelled after the grace: reported below like any cut shutdown.
        }
        // The group cancels the server only when the grace ran out (a clock compared here
        // would race the group's own, which starts a moment before the notice hears the signal).
        if server.wasCancelled {
            logger.notice("requests still in flight after the \(grace) s shutdown grace were cut")
        }
    }
}

/// Runs a service and remembers whether its task was cancelled while it ran.
final class CancellationWatch<Wrapped: Service>: Service, Sendable {
    private let wrapped: Wrapped
    private let cancelled = Mutex(false)

    init(_ wrapped: Wrapped) { self.wrapped = wrapped }

    var wasCancelled: Bool { cancelled.withLock { $0 } }

    func run() async throws {
        defer { if Task.isCancelled { cancelled.withLock { $0 = true } } }
        try await wrapped.run()
    }
}

/// Logs the start of a graceful shutdown.
final class ShutdownNotice: Service, Sendable {
    let grace: Int
    let logger: Logger

    init(grace: Int, logger: Logger) {
        self.grace = grace
        self.logger = logger
    }

    func run() async throws {
        try? await gracefulShutdown()
        logger.notice("stopping: requests in flight get up to \(grace) s to finish")
    }
}
