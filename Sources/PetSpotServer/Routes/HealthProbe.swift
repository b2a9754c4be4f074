/// The readiness probe's last answer, reused for `interval`: the checks write the database and
/// fsync a file, so a client polling `/health` in a loop must not make every request do that (a
/// few hundred a second slowed every owner's edits tenfold). Requests that arrive while a check
/// runs wait for it and share its answer, so at most one check runs at a time and at most one
/// starts per `interval`.
actor HealthProbe {
    /// Healthy, or the part that failed and why (logged by the check that found it).
    enum Outcome: Sendable, Equatable {
        case ready
        case unavailable(part: String)
    }

    let interval: Duration
    private var last: (outcome: Outcome, at: ContinuousClock.Instant)?
    private var running: Task<Outcome, Never>?

    init(interval: Duration = .seconds(1)) {
        self.interval = interval
    }

    /// The cached answer when it is younger than `interval`, else the answer of a check (the one
    /// running, or `check` started now).
    func answer(_ check: @escaping @Sendable () async -> Outcome) async -> Outcome {
        if let last, ContinuousClock.now - last.at < interval { return last.outcome }
        if let running { return await running.value }
        let task = Task { await check() }
        running = task
        let outcome = await task.value
        last = (outcome, ContinuousClock.now)
        running = nil
        return outcome
    }
}
