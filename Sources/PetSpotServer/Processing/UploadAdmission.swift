import Synchronization

/// How many photo uploads are received or processed at once, in all and per client address. Past
/// either limit an upload is refused at once with 503 and `Retry-After` (clients retry), instead of
/// queueing until everyone's latency nears their timeouts — and so that one address sending many
/// uploads at once cannot take every place: it gets `perClientLimit` of them, the rest stay for
/// everyone else.
final class UploadAdmission: Sendable {
    let limit: Int
    let perClientLimit: Int
    private let inFlight = Mutex((total: 0, byClient: [String: Int]()))

    init(limit: Int, perClientLimit: Int = 4) {
        self.limit = max(1, limit)
        self.perClientLimit = max(1, perClientLimit)
    }

    /// Runs `body` as one of the uploads in flight, counted for `client` (every way a photo comes
    /// in names its client, so none can take every place from one address).
    /// - Throws: ``Busy`` when `limit` are in flight already, or `perClientLimit` from `client`
    ///   (answered with ``APIFailure/uploadsBusy(retryAfter:)``).
    func admit<T: Sendable>(client: String, _ body: () async throws -> T) async throws -> T {
        let admitted = inFlight.withLock { count -> Int? in
            guard count.total < limit else { return nil }
            let mine = count.byClient[client, default: 0]
            guard mine < perClientLimit else { return nil }
            count.byClient[client] = mine + 1
            count.total += 1
            return count.total
        }
        guard let admitted else { throw Busy() }
        ServerMetrics.uploadsInFlight(admitted)
        defer {
            ServerMetrics.uploadsInFlight(inFlight.withLock { count in
                count.total -= 1
                let mine = count.byClient[client, default: 1] - 1
                count.byClient[client] = mine > 0 ? mine : nil
                return count.total
            })
        }
        return try await body()
    }

    /// Every upload slot is taken, or the client's share of them.
    struct Busy: Error {}
}
