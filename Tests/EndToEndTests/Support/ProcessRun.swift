import Foundation
import TestProcesses
import TestEngines

/// Runs a short command off the cooperative threads and returns its trimmed standard output.
/// - Throws: ``EngineFailure`` with the output when it exits non-zero.
func runProcess(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) async throws -> String {
    let (status, output) = try await runProcessToEnd(executable, arguments, environment: environment)
    guard status == 0 else { throw EngineFailure(description: "\(arguments.first ?? executable) exited \(status): \(output)") }
    return output.trimmingCharacters(in: .whitespacesAndNewlines)
}

/// Runs a command to its end off the cooperative threads: its status and all it printed
/// (standard output and error, through a file: a server it starts may keep a pipe open).
func runProcessToEnd(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) async throws -> (Int32, String) {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            if let environment { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
            let output = FileManager.default.temporaryDirectory.appendingPathComponent("petspot-cmd-\(UUID().uuidString)")
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            defer { try? FileManager.default.removeItem(at: output) }
            do {
                let handle = try FileHandle(forWritingTo: output)
                process.standardOutput = handle
                process.standardError = handle
                try process.run()
                let status = process.waitForExit()
                try handle.close()
                continuation.resume(returning: (status, (try? String(contentsOf: output, encoding: .utf8)) ?? ""))
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }
}
