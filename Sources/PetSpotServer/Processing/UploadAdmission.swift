import Synchronization

/// How many photo uploads are received or processed at once. Past the limit an upload is
/// refused at once with 503 and `Retry-After` (clients retry), instead of queueing until
/// everyone's latency nears their timeouts.
final class UploadAdmission: Sendable {
    let limit: Int
    private let inFlight = Mutex(0)

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Runs `body` as one of the uploads in flight.
    /// - Throws: ``Busy`` when `limit` are in flight already (answered with
    ///   ``APIFailure/uploadsBusy(retryAfter:)``).
    func admit<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        let admitted = inFlight.withLock { count -> Int? in
            guard count < limit else { return nil }
            count += 1
            return count
        }
        guard let admitted else { throw Busy() }
        ServerMetrics.uploadsInFlight(admitted)
        defer { ServerMetrics.uploadsInFlight(inFlight.withLock { $0 -= 1; return $0 }) }
        return try await body()
    }

    /// Every upload slot is taken.
    struct Busy: Error {}
}
