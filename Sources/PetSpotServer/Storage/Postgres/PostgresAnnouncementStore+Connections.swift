import Logging
import PostgresNIO
import Synchronization

/// How the store gets its connections: leased from the pool within a deadline, one
/// transaction at a time, with an answer within a bound.
extension PostgresAnnouncementStore {
    /// How long an operation may run once it has its connection, in lease timeouts (a request's
    /// queries take milliseconds; this only ends waits that would never end).
    static let answerBoundInLeaseTimeouts = 10

    /// Runs `body` on a connection of the pool, which must be had within ``leaseTimeout``: while
    /// the database is down the pool keeps trying to connect (and would keep a request waiting
    /// for up to a minute); past the timeout the request gets 503 instead.
    ///
    /// Once it has its connection, the operation must end within
    /// ``answerBoundInLeaseTimeouts`` lease timeouts too, unless it is `long` (migrations and
    /// imports, one transaction of any length). When PostgreSQL stops at once while a query is
    /// on the wire, PostgresNIO can leave that query waiting for ever (seen under load with
    /// `pg_ctl stop -m immediate`); the caller gets ``StorageError/unreachable(what:reason:)``
    /// at the bound and the stuck work is cancelled, not waited for.
    func leased<Result: Sendable>(long: Bool = false, _ body: @escaping @Sendable (PostgresConnection) async throws -> Result) async throws -> Result {
        let client = self.client, timeout = leaseTimeout
        let bound: Duration? = long ? nil : timeout * Self.answerBoundInLeaseTimeouts
        let race = LeaseRace<Result>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
                race.begin(continuation)
                race.setWork(Task {
                    do {
                        let value = try await client.withConnection { connection in
                            race.acquire()
                            return try await body(connection)
                        }
                        race.finish(.success(value))
                    } catch {
                        race.finish(.failure(error))
                    }
                })
                race.setTimer(Task {
                    do {
                        try await Task.sleep(for: timeout)
                        guard race.isAcquired else {
                            race.abandon(StorageError.unreachable(what: "the database", reason: "no connection could be had within \(timeout)"))
                            return
                        }
                        guard let bound else { return }
                        try await Task.sleep(for: bound)
                        race.abandon(StorageError.unreachable(what: "the database", reason: "no answer within \(bound)"))
                    } catch {
                        // Cancelled: the operation ended first.
                    }
                })
            }
        } onCancel: {
            race.cancelWork()
        }
    }

    /// ``leased(long:_:)`` in a transaction, rethrowing what went wrong itself rather than
    /// PostgresNIO's `PostgresTransactionError` around it: the closure's own error first (the
    /// rollback ran), else the failed BEGIN, COMMIT or ROLLBACK.
    func transaction<Result: Sendable>(long: Bool = false, _ body: @escaping @Sendable (PostgresConnection) async throws -> Result) async throws -> Result {
        let logger = self.logger
        return try await leased(long: long) { connection in
            do {
                return try await connection.withTransaction(logger: logger) { connection in try await body(connection) }
            } catch let error as PostgresTransactionError {
                throw error.closureError ?? error.beginError ?? error.commitError ?? error.rollbackError ?? error
            }
        }
    }
}

/// One lease's outcome, decided once: the operation's result, or the timer's refusal (the
/// operation is then cancelled and left to end on its own).
private final class LeaseRace<Result: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Result, any Error>?
        var acquired = false
        var decided = false
        var work: Task<Void, Never>?
        var timer: Task<Void, Never>?
    }

    private let state = Mutex(State())

    var isAcquired: Bool { state.withLock { $0.acquired } }

    func begin(_ continuation: CheckedContinuation<Result, any Error>) {
        state.withLock { $0.continuation = continuation }
    }

    func acquire() {
        state.withLock { $0.acquired = true }
    }

    func setWork(_ work: Task<Void, Never>) {
        let decided = state.withLock { state in
            state.work = work
            return state.decided
        }
        if decided { work.cancel() }
    }

    func setTimer(_ timer: Task<Void, Never>) {
        let decided = state.withLock { state in
            state.timer = timer
            return state.decided
        }
        if decided { timer.cancel() }
    }

    /// The operation ended: its result is the answer, unless the timer gave one first.
    func finish(_ result: Swift.Result<Result, any Error>) {
        let (continuation, timer) = decide()
        timer?.cancel()
        continuation?.resume(with: result)
    }

    /// The timer ran out: the answer is `error`, and the operation is cancelled.
    func abandon(_ error: any Error) {
        let (continuation, _) = decide()
        guard let continuation else { return }
        cancelWork()
        continuation.resume(throwing: error)
    }

    func cancelWork() {
        state.withLock { $0.work }?.cancel()
    }

    private func decide() -> (CheckedContinuation<Result, any Error>?, Task<Void, Never>?) {
        state.withLock { state in
            guard !state.decided else { return (nil, nil) }
            state.decided = true
            let continuation = state.continuation
            state.continuation = nil
            return (continuation, state.timer)
        }
    }
}
