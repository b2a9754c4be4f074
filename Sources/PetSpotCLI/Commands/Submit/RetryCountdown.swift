import Foundation
import PetSpotClient
import PhotoCLI
import Synchronization

/// On a terminal, the wait before the next attempt of a step, counted down in place each second
/// ("server not reachable — trying again in 3 s (attempt 4; gives up 24 s from now). Ctrl-C
/// stops; `petspot report submit` carries on"), so a server restarting is waited for visibly.
final class RetryCountdown: Sendable {
    private let ticking = Mutex<Task<Void, Never>?>(nil)
    /// When the step's retries end (its first attempt plus `--max-retry-time`).
    private let deadline: ContinuousClock.Instant

    init(budget: Duration) {
        deadline = .now + budget
    }

    /// Counts `wait` down for `attempt`, replacing any countdown under way.
    func start(attempt: Int, wait: Duration, cause: SubmissionError) {
        let what = RetryNotice.cause(cause)
        let end = ContinuousClock.now + wait
        let deadline = deadline
        let task = Task {
            while !Task.isCancelled {
                let now = ContinuousClock.now
                let left = Self.seconds(end - now), total = Self.seconds(deadline - now)
                guard left > 0 else { break }
                Terminal.status("\(what) — trying again in \(left) s (attempt \(attempt); gives up \(max(total, left)) s from now). "
                    + "Ctrl-C stops; `petspot report submit` carries on.")
                // Until the shown number changes.
                try? await Task.sleep(for: max(.milliseconds(20), (end - now) - .seconds(left - 1)))
            }
        }
        ticking.withLock { running in
            running?.cancel()
            running = task
        }
    }

    /// Ends the countdown and clears its line.
    func stop() {
        let running = ticking.withLock { running -> Task<Void, Never>? in
            defer { running = nil }
            return running
        }
        guard let running else { return }
        running.cancel()
        Terminal.clearStatus()
    }

    /// Whole seconds left, rounded up.
    private static func seconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds) + (attoseconds > 0 ? 1 : 0)
    }
}
