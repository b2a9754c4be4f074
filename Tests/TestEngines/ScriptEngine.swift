#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestProcesses

/// A Python script started as a test engine and driven a line at a time over its standard input
/// and output: its first line says it started (JSON: where it listens), then each command is
/// answered `ok` or with the reason it failed. The script stops its engine when its standard
/// input closes, so dropping this stops it. `scripts/pg-cluster.py` and `scripts/smtp-sink.py`
/// work this way.
final class ScriptEngine: @unchecked Sendable {
    /// What the script printed when it started.
    let greeting: String
    private let name: String
    private let process: ChildProcess
    private let lock = NSLock()

    /// Starts `script` with `arguments` and waits for its first line.
    init(_ script: URL, arguments: [String] = []) throws {
        name = script.deletingPathExtension().lastPathComponent
        process = try ChildProcess("/usr/bin/env", ["python3", script.path] + arguments, input: .pipe, output: .pipe, error: .inherited)
        greeting = Self.readLine(process.standardOutput!)
    }

    /// The greeting decoded as `T`, or `EngineFailure` with `hint` (what to install).
    func started<T: Decodable>(as type: T.Type, hint: String) throws -> T {
        guard let started = try? JSONDecoder().decode(type, from: Data(greeting.utf8)) else {
            throw EngineFailure(description: "scripts/\(name).py did not start (\(hint)): \(greeting)")
        }
        return started
    }

    /// Sends one command and waits for its answer; anything but `ok` is an `EngineFailure`.
    func command(_ line: String) throws {
        let answer = lock.withLock { () -> String in
            process.standardInput!.write(Data((line + "\n").utf8))
            return Self.readLine(process.standardOutput!)
        }
        guard answer == "ok" else { throw EngineFailure(description: "\(name) \(line): \(answer)") }
    }

    /// One line, read a byte at a time so nothing past it is taken from the pipe.
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
