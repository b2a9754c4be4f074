#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestProcesses

/// The built `petspot` executable, run as child processes (``ChildProcess``).
enum PetSpotBinary {
    /// `petspot` next to the test bundle (`swift build --build-tests` builds both), or `$PETSPOT_BINARY`.
    static let url = BuiltProduct.url("petspot", overriddenBy: "PETSPOT_BINARY")

    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: url.path) }

    /// A started child whose stdout and stderr go to files (no pipe to drain).
    final class Child {
        let process: ChildProcess
        let stdoutPath: String
        let stderrPath: String

        init(process: ChildProcess, stdoutPath: String, stderrPath: String) {
            self.process = process
            self.stdoutPath = stdoutPath
            self.stderrPath = stderrPath
        }

        var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
        var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

        /// The exit code once the child has ended, or `nil` when a signal ended it.
        var exitCode: Int32? { process.waitForTermination().exitCode }

        /// Whether a signal ended the child (waits for its end).
        var wasKilled: Bool { process.waitForTermination().bySignal }

        func kill() {
            process.send(SIGKILL)
        }
    }

    /// Starts `petspot arguments…` with its output in files under `scratch`.
    static func start(_ arguments: [String], scratch: String, label: String = UUID().uuidString) throws -> Child {
        let stdoutPath = scratch + "/\(label).out"
        let stderrPath = scratch + "/\(label).err"
        let environment = ProcessInfo.processInfo.environment.filter { $0.key != "PETSPOT_CACHE_DIR" }
        let process = try ChildProcess(url, arguments, environment: environment, output: .file(stdoutPath), error: .file(stderrPath))
        return Child(process: process, stdoutPath: stdoutPath, stderrPath: stderrPath)
    }
}
