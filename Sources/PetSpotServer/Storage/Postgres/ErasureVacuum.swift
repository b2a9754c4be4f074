import Logging
import PostgresNIO
import Synchronization

/// Vacuums the tables a take-down erases from, in the background, after each take-down.
///
/// PostgreSQL's UPDATE leaves the old row version, with the erased email, phone and texts, in the
/// table as a dead tuple until VACUUM prunes it; autovacuum gets there only after enough changes
/// (by default a fifth of the table), which on a quiet table can be days. So each take-down asks
/// for a VACUUM of the three tables; take-downs while one runs are covered by one more run, never
/// by a queue of them. What remains after it (free space not yet reused, the write-ahead log until
/// its segments are recycled, backups) is stated in docs/server.md.
final class ErasureVacuum: Sendable {
    private enum State { case idle, running, runningAndAskedAgain }
    private let state = Mutex(State.idle)

    /// Starts a vacuum unless one is running; one running then runs once more when it ends.
    func request(on client: PostgresClient, logger: Logger) {
        let start = state.withLock { state -> Bool in
            switch state {
            case .idle: state = .running; return true
            case .running, .runningAndAskedAgain: state = .runningAndAskedAgain; return false
            }
        }
        guard start else { return }
        Task.detached { [self] in
            repeat {
                do {
                    // One statement, outside any transaction block (VACUUM refuses to run inside one).
                    try await client.query("VACUUM (SKIP_LOCKED) announcement, idempotency_key, auth_trusted_client",
                                           logger: logger)
                } catch {
                    logger.warning("vacuum after a take-down failed (autovacuum will get there later): \(String(reflecting: error))")
                }
            } while state.withLock { state -> Bool in
                if state == .runningAndAskedAgain { state = .running; return true }
                state = .idle
                return false
            }
        }
    }
}
