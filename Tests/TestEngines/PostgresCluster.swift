import Foundation
import TestProcesses

/// `scripts/pg-cluster.py`: a throwaway PostgreSQL 15 cluster on a free port, removed when
/// dropped or when this process ends (the script stops it when its standard input closes).
public final class PostgresCluster: @unchecked Sendable {
    /// `postgres://petspot:…@127.0.0.1:PORT` (add `/DATABASE`).
    public let baseURL: String
    private let engine: ScriptEngine

    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/pg-cluster.py")

    public init() throws {
        engine = try ScriptEngine(Self.script)
        struct Started: Decodable { var base_url: String }
        baseURL = try engine.started(as: Started.self, hint: "is postgresql installed? run scripts/install-deps.sh").base_url
    }

    /// The URL of database `name`, created when missing.
    public func database(_ name: String) throws -> String {
        try command("createdb \(name)")
        return baseURL + "/" + name
    }

    /// ``database(_:)`` off the cooperative threads (it waits for `createdb`).
    public func database(_ name: String) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try self.database(name) })
            }
        }
    }

    /// Stops the server at once (connections drop, as in a crash) and starts it again.
    public func restart() throws { try command("restart") }
    public func stop() throws { try command("stop") }
    public func start() throws { try command("start") }

    private func command(_ line: String) throws { try engine.command(line) }
}

public struct EngineFailure: Error, CustomStringConvertible {
    public let description: String

    public init(description: String) {
        self.description = description
    }
}
