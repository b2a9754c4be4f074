#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestProcesses
import PetSpotServer
import TestScratch

/// The built `petspot-server`, started on a free port over a data directory, talked to over
/// real HTTP on 127.0.0.1.
final class ServerProcess: @unchecked Sendable {
    /// `petspot-server` next to the test bundle (`swift build --build-tests` builds both).
    static let binary = BuiltProduct.url("petspot-server")

    let dataDirectory: String
    let backend: TestBackend
    let process: ChildProcess
    private let outputPath: String
    private(set) var baseURL = ""

    /// The password key of every PostgreSQL-backed server the tests start.
    static let sharedPasswordKey = PasswordKeyring.newKeyLine()

    /// Starts the server and waits until it prints the address it listens on.
    /// - Parameter backend: the storage (``TestBackend/configured`` unless a test is about one).
    init(dataDirectory: String, arguments: [String] = [], environment: [String: String] = [:],
         backend: TestBackend = .configured) throws {
        self.dataDirectory = dataDirectory
        self.backend = backend
        let storage = try backend.settings(for: dataDirectory, given: arguments)
        outputPath = dataDirectory + ".server-\(UUID().uuidString.prefix(6)).log"
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        // Rate limits out of the way unless a test is about them: tests send from one address.
        let generous = ["--create-rate", "--upload-rate", "--list-rate", "--detail-rate"].filter { !arguments.contains($0) }.flatMap { [$0, "100000"] }
        var childEnvironment = ProcessInfo.processInfo.environment.merging(storage.environment) { $1 }.merging(environment) { $1 }
        // On PostgreSQL the key comes from outside, the same for every replica of the run.
        if childEnvironment["PETSPOT_DATABASE_URL"] != nil, childEnvironment["PETSPOT_PASSWORD_KEY"] == nil,
           !arguments.contains("--password-key-file") {
            childEnvironment["PETSPOT_PASSWORD_KEY"] = Self.sharedPasswordKey
        }
        process = try ChildProcess(
            Self.binary,
            ["--port", "0", "--data-dir", dataDirectory, "--log-level", "warning"] + generous + storage.arguments + arguments,
            environment: childEnvironment, output: .file(outputPath), error: .standardOutput)
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if let line = log.split(separator: "\n").first(where: { $0.hasPrefix("petspot-server listening on ") }),
               let url = line.split(separator: " ").first(where: { $0.hasPrefix("http://") }) {
                baseURL = String(url)
                return
            }
            guard process.isRunning else { break }
            usleep(20_000)
        }
        process.terminate()
        throw StartFailed(log: log)
    }

    struct StartFailed: Error, CustomStringConvertible {
        let log: String
        var description: String { "petspot-server did not start: \(log)" }
    }

    /// The process's peak resident memory so far (VmHWM), in MB.
    func peakMemoryMB() -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) / 1024
    }

    /// The photos the server has stored: key → size in bytes.
    func storedPhotos() async throws -> [String: Int] {
        try await backend.storedPhotos(dataDirectory: dataDirectory)
    }

    /// Waits (up to 20 s) until `count` uploads have their files open in the data directory's
    /// `tmp/`: a server opens an upload's file once it has admitted it, before its body.
    static func waitForUploadFiles(_ count: Int, in dataDirectory: String) async throws {
        for _ in 0..<200 where ((try? FileManager.default.contentsOfDirectory(atPath: dataDirectory + "/tmp")) ?? []).count < count {
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Everything the server printed.
    var log: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }

    /// Sends a signal and waits for the process to end; its exit status.
    @discardableResult
    func stop(signal: Int32 = SIGTERM) -> Int32 {
        process.send(signal)
        return process.waitForExit()
    }

    deinit {
        if process.isRunning { process.send(SIGKILL); process.waitForExit() }
        unlink(outputPath)
    }
}

/// A fresh folder under the system's temporary directory, removed when the test process ends.
func makeTemporaryDirectory(_ label: String) throws -> String {
    try ScratchFolder.make("e2e-\(label)")
}
