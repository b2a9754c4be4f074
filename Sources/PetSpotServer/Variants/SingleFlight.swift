/// Runs the work for a key once however many callers ask at the same time: the first caller
/// starts it, the others wait for its result (or its error). A caller that gives up does not
/// stop the work for the others.
actor SingleFlight<Key: Hashable & Sendable, Value: Sendable> {
    private var running: [Key: Task<Value, any Error>] = [:]

    func run(_ key: Key, _ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        if let task = running[key] { return try await task.value }
        let task = Task { try await work() }
        running[key] = task
        defer { running[key] = nil }
        return try await task.value
    }

    /// Keys being worked on now.
    var count: Int { running.count }
}
