#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization
import TestProcesses

/// How one run of a command ended: what it printed and its exit status.
struct CLIResult: Sendable, CustomStringConvertible {
    var stdout: String
    var stderr: String
    /// The exit code, or the signal number when ``terminatedBySignal``.
    var status: Int32
    /// The process was killed by a signal instead of exiting.
    var terminatedBySignal: Bool
    /// The run went past its timeout and was killed.
    var timedOut: Bool

    /// The exit code of a process that exited normally; `nil` after a signal or a timeout.
    var exitCode: Int32? { terminatedBySignal || timedOut ? nil : status }

    var description: String {
        let ending = timedOut ? "timed out" : terminatedBySignal ? "killed by signal \(status)" : "exit \(status)"
        return "\(ending)\n--- stdout ---\n\(stdout)\n--- stderr ---\n\(stderr)"
    }
}

/// Runs the built `petspot` binary (or another program) the way a person or a script would:
/// no stdin (or the given input), stdout and stderr captured separately, the exit status kept, a timeout enforced.
///
/// The idea of argument-parser's `AssertExecuteCommand`
/// (`Sources/ArgumentParserTestHelpers/TestHelpers.swift`), without its assertions, so each test
/// states the expectation it cares about.
enum CLIRunner {
    /// The `petspot` executable built alongside the tests, or `$PETSPOT_BINARY` when set.
    static func petspotURL() throws -> URL {
        try BuiltProduct.existing("petspot", overriddenBy: "PETSPOT_BINARY")
    }

    /// Runs `petspot` with `arguments` and waits for it.
    /// - Parameters:
    ///   - arguments: the command line after `petspot`.
    ///   - directory: the working directory (default: the test process's).
    ///   - environment: variables to add to or replace in the test process's environment.
    ///   - input: what the process reads on stdin, then the end of input (default: nothing).
    ///   - timeout: the run is killed after this long and the result says ``CLIResult/timedOut``.
    static func petspot(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
                        input: String? = nil, timeout: Duration = .seconds(60)) async throws -> CLIResult {
        try await run(petspotURL(), arguments, in: directory, environment: environment, input: input, timeout: timeout)
    }

    /// Runs any executable with no stdin (or `input`) and waits for it, killing it after `timeout`.
    static func run(_ executable: URL, _ arguments: [String], in directory: URL? = nil,
                    environment: [String: String] = [:], input: String? = nil,
                    timeout: Duration = .seconds(60)) async throws -> CLIResult {
        let running = try RunningProcess(executable, arguments, in: directory, environment: environment, input: input)
        return await running.result(timeout: timeout)
    }

    /// Quotes `text` for `/bin/sh` (for commands handed to `script -c`).
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// A started process whose output is being collected, for tests that need to act while it runs
/// (send SIGINT) before waiting for its result.
final class RunningProcess: Sendable {
    private let process: ChildProcess
    private let stdout: PipeReader
    private let stderr: PipeReader

    init(_ executable: URL, _ arguments: [String], in directory: URL? = nil,
         environment: [String: String] = [:], input: String? = nil) throws {
        process = try ChildProcess(executable, arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
                                   directory: directory?.path, input: input == nil ? .null : .pipe, output: .pipe, error: .pipe)
        if let writer = process.standardInput, let input {
            // Small inputs fit the pipe's buffer; closing the write end is the end of input. A child
            // that exits without reading must not take the test process down with SIGPIPE.
            signal(SIGPIPE, SIG_IGN)
            try? writer.write(contentsOf: Data(input.utf8))
            try? writer.close()
        }
        // Drain both pipes while the process runs, so a chatty child never blocks on a full pipe.
        stdout = PipeReader(process.standardOutput!)
        stderr = PipeReader(process.standardError!)
    }

    var processIdentifier: Int32 { process.processIdentifier }

    /// Whether the process has not ended yet.
    var isRunning: Bool { process.isRunning }

    /// Sends `signal` (e.g. `SIGINT`) to the process.
    func send(_ signal: Int32) {
        process.send(signal)
    }

    /// Waits for the process to end (killing it after `timeout`) and for its output.
    func result(timeout: Duration) async -> CLIResult {
        var ended = await process.termination(within: timeout)
        let timedOut = ended == nil
        if timedOut {
            process.terminate()
            ended = await process.termination(within: .seconds(2))
            if ended == nil { process.send(SIGKILL) }
        }
        let termination = await process.termination()
        let out = await stdout.text()
        let err = await stderr.text()
        return CLIResult(stdout: out, stderr: err, status: termination.status,
                         terminatedBySignal: termination.bySignal, timedOut: timedOut)
    }
}

/// Reads a pipe to its end on a background thread.
private final class PipeReader: Sendable {
    private let data = Mutex<Data?>(nil)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            let bytes = handle.readDataToEndOfFile()
            data.withLock { $0 = bytes }
        }
    }

    /// What the pipe carried, once its end is read (at most 30 s after the process's end: a
    /// child of the child may hold the pipe open).
    func text() async -> String {
        let deadline = ContinuousClock.now + .seconds(30)
        while data.withLock({ $0 == nil }) && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        return data.withLock { $0.map { String(decoding: $0, as: UTF8.self) } ?? "" }
    }
}

extension CLIResult {
    struct NotAJSONArray: Error, CustomStringConvertible {
        let stdout: String
        var description: String { "stdout is not a JSON array of objects:\n\(stdout)" }
    }

    /// stdout parsed as the JSON array of objects that `--json` prints.
    func jsonArray() throws -> [[String: Any]] {
        let value = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
        guard let array = value as? [[String: Any]] else { throw NotAJSONArray(stdout: stdout) }
        return array
    }
}
