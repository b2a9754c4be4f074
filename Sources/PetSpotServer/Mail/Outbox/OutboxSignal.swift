import Synchronization

/// Wakes the delivery worker when this replica queued something (others' rows are found by
/// polling), and tells it to stop on shutdown.
final class OutboxSignal: Sendable {
    private struct State {
        var pending = false
        var stopping = false
        var waiter: (id: Int, continuation: CheckedContinuation<Void, Never>)?
        var nextID = 0
    }

    private let state = Mutex(State())

    /// Something was queued: the worker looks now.
    func wake() {
        let waiting = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.pending = true
                return nil
            }
            state.waiter = nil
            return waiter.continuation
        }
        waiting?.resume()
    }

    /// The server is shutting down: the worker finishes the row in hand and stops.
    func stop() {
        state.withLock { $0.stopping = true }
        wake()
    }

    var isStopping: Bool { state.withLock { $0.stopping } }

    /// Returns when woken (at once if woken since the last wait), or after `duration`.
    func wait(upTo duration: Duration) async {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        let timer = Task { [weak self] in
            try? await Task.sleep(for: duration)
            self?.expire(id)
        }
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if state.pending || state.stopping {
                    state.pending = false
                    return true
                }
                state.waiter = (id, continuation)
                return false
            }
            if now { continuation.resume() }
        }
        timer.cancel()
    }

    private func expire(_ id: Int) {
        let waiting = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter, waiter.id == id else { return nil }
            state.waiter = nil
            return waiter.continuation
        }
        waiting?.resume()
    }
}
