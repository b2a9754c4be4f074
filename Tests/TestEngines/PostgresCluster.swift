#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestProcesses

/// `scripts/pg-cluster.py`: a throwaway PostgreSQL 15 cluster on a free port, removed when
/// dropped or when this process ends (the script stops it when its standard input closes).
public final class PostgresCluster: @unchecked Sendable {
    /// `postgres://petspot:…@127.0.0.1:PORT` (add `/DATABASE`).
    public let baseURL: String
    private let process: ChildProcess
    private let lock = NSLock()

    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/pg-cluster.py")

    public init() throws {
        process = try ChildProcess("/usr/bin/env", ["python3", Self.script.path], input: .pipe, output: .pipe, error: .inherited)
        let line = Self.readLine(process.standardOutput!)
        struct Started: Decodable { var base_url: String }
        guard let started = try? JSONDecoder().decode(Started.self, from: Data(line.utf8)) else {
            throw EngineFailure(description: "scripts/pg-cluster.py did not start (is postgresql installed? run scripts/install-deps.sh): \(line)")
        }
        baseURL = started.base_url
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

    private func command(_ line: String) throws {
        let answer = lock.withLock { () -> String in
            process.standardInput!.write(Data((line + "\n").utf8))
            return Self.readLine(process.standardOutput!)
        }
        guard answer == "ok" else { throw EngineFailure(description: "pg-cluster \(line): \(answer)") }
    }

    private static func readLine(_ pipe: FileHandle) -> String {
        var line = Data()
        while true {
            var byte: UInt8 = 0
            let count = read(pipe.fileDescriptor, &byte, 1)
            guard count == 1, byte != 0x0A else { break }
            line.append(byte)
        }
        return String(decoding: line, as: UTF8.self)
    }

    deinit {
        try? process.standardInput?.close()
        process.waitForExit()
    }
}

public struct EngineFailure: Error, CustomStringConvertible {
    public let description: String

    public init(description: String) {
        self.description = description
    }
}
