import Synchronization

/// An in-process lock per key: `withLock(key)` runs its body when no other body holds the same
/// key, waiting its turn otherwise (first come, first served). For the embedded store, where
/// the data directory's lock already makes this process the only writer.
final class KeyedLock: Sendable {
    private struct State {
        var held: Set<String> = []
        var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]
    }

    private let state = Mutex(State())

    func withLock<T: Sendable>(_ key: String, _ body: () async throws -> T) async throws -> T {
        await acquire(key)
        defer { release(key) }
        return try await body()
    }

    private func acquire(_ key: String) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state in
                if state.held.insert(key).inserted { return true }
                state.waiting[key, default: []].append(continuation)
                return false
            }
            if granted { continuation.resume() }
        }
    }

    private func release(_ key: String) {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard var queue = state.waiting[key], !queue.isEmpty else {
                state.held.remove(key)
                state.waiting[key] = nil
                return nil
            }
            let next = queue.removeFirst()
            state.waiting[key] = queue.isEmpty ? nil : queue
            return next  // the key stays held, handed to the next waiter
        }
        next?.resume()
    }
}
