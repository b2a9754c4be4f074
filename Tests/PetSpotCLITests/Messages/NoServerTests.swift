import Foundation
import Testing

/// With nothing listening, the client says so at once, names the URL it tried and what to do
/// (issue 21 §5): AsyncHTTPClient's pool no longer retries a refused connection until the
/// connect timeout (10 s before), and our own retry layer is the only one.
@Suite struct NoServerTests {
    /// Port 9 (discard) has no listener on a test machine; the connection is refused at once.
    static let nowhere = "http://127.0.0.1:9"

    @Test func aRefusedConnectionIsReportedWithinASecondWithTheURLAndTheWayOut() async throws {
        for command in [["pet", "list"], ["pet", "show", "some-id"]] {
            let started = ContinuousClock.now
            let result = try await CLIRunner.petspot(command + ["--server", Self.nowhere, "--max-attempts", "1", "--connect-timeout", "30"])
            let elapsed = ContinuousClock.now - started
            #expect(result.exitCode == 69, "\(result)")
            // A hidden retry would go on until the 30 s connect timeout; half of it leaves room for a
            // loaded machine starting the debug binary (it takes 0.03 s on a quiet one).
            #expect(elapsed < .seconds(15), "\(command) took \(elapsed)")
            #expect(result.stderr.contains("error: No connection."), "\(result.stderr)")
            #expect(result.stderr.contains("Nothing answered at \(Self.nowhere) (connection refused): start petspot-server there, "
                                           + "or pass --server URL"), "\(result.stderr)")
            #expect(!result.stderr.contains("report submit"), "a read resumes nothing: \(result.stderr)")
        }
    }

    @Test func readsRetryAsManyTimesAsAskedAndSayWhy() async throws {
        let started = ContinuousClock.now
        let result = try await CLIRunner.petspot(["pet", "list", "--server", Self.nowhere, "--max-attempts", "3", "-v",
                                                  "--connect-timeout", "30"])
        let elapsed = ContinuousClock.now - started
        #expect(result.exitCode == 69, "\(result)")
        let retries = result.stderr.split(separator: "\n").filter { $0.hasPrefix("read failed: The server cannot be reached: ") }
        #expect(retries.count == 2 && retries.last?.contains("attempt 3 in") == true, "\(result.stderr)")
        #expect(elapsed < .seconds(25), "three refused attempts with backoff took \(elapsed) (hidden retries: 90 s)")
        let json = try await CLIRunner.petspot(["pet", "list", "--server", Self.nowhere, "--max-attempts", "2", "--json"])
        #expect(json.exitCode == 69 && json.stderr.isEmpty, "\(json)")
        #expect(json.stdout.contains("\"exit_code\" : 69"), "\(json.stdout)")
    }
}
