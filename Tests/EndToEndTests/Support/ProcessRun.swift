import Foundation
import TestProcesses
import TestEngines

/// Runs a short command and returns its trimmed standard output.
/// - Throws: ``EngineFailure`` with the output when it exits non-zero.
func runProcess(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) async throws -> String {
    let (status, output) = try await runProcessToEnd(executable, arguments, environment: environment)
    guard status == 0 else { throw EngineFailure(description: "\(arguments.first ?? executable) exited \(status): \(output)") }
    return output.trimmingCharacters(in: .whitespacesAndNewlines)
}

/// Runs a command to its end, without holding a cooperative thread: its status and all it printed
/// (standard output and error, through a file: a server it starts may keep a pipe open).
func runProcessToEnd(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) async throws -> (Int32, String) {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("petspot-cmd-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: output) }
    let process = try ChildProcess(executable, arguments,
                                   environment: environment.map { ProcessInfo.processInfo.environment.merging($0) { $1 } },
                                   output: .file(output), error: .standardOutput)
    let status = await process.exitStatus()
    return (status, (try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
}
