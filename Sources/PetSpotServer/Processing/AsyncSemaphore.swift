/// A budget of `capacity` units shared in order of arrival: a holder takes `units` (at most the
/// whole capacity) and waits while they are not free, behind anyone who came first — so a
/// large request is never starved by a stream of small ones.
///
/// Bounds how many photos are decoded at once (one unit each) and how many pixels are in
/// flight (a unit per pixel), which bounds the server's memory whatever the uploads.
actor AsyncSemaphore {
    let capacity: Int
    private var available: Int
    private var waiters: [(units: Int, continuation: CheckedContinuation<Void, Never>)] = []

    init(limit: Int) {
        capacity = max(1, limit)
        available = capacity
    }

    /// Runs `body` while holding `units` (clamped to 1…capacity).
    func withSlot<T: Sendable>(units: Int = 1, _ body: @Sendable () async throws -> T) async throws -> T {
        let units = min(max(1, units), capacity)
        await acquire(units)
        defer { release(units) }
        return try await body()
    }

    private func acquire(_ units: Int) async {
        if waiters.isEmpty && available >= units {
            available -= units
            return
        }
        await withCheckedContinuation { waiters.append((units, $0)) }
    }

    private func release(_ units: Int) {
        available += units
        while let first = waiters.first, first.units <= available {
            available -= first.units
            waiters.removeFirst().continuation.resume()
        }
    }
}
