import Foundation
import Testing

/// With nothing listening, the client says so at once, names the URL it tried and what to do: AsyncHTTPClient's pool no longer retries a refused connection until the
/// connect timeout, and our own retry layer is the only one.
@Suite struct NoServerTests {
    /// Port 9 (discard) has no listener on a test machine; the connection is refused at once.
    static let nowhere = "http://127.0.0.1:9"

    /// Runs petspot under bash's `time`, so the figure is the process's own wall time (the test
    /// process's threads may be busy with other suites when it ends).
    static func timed(_ arguments: [String]) async throws -> (result: CLIResult, seconds: Double) {
        let petspot = try CLIRunner.petspotURL().path
        let quoted = arguments.map { "'\($0)'" }.joined(separator: " ")
        var result = try await CLIRunner.run(URL(fileURLWithPath: "/bin/bash"),
                                             ["-c", "TIMEFORMAT='elapsed %R'; time '\(petspot)' \(quoted)"], timeout: .seconds(120))
        var lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last?.isEmpty == true { lines.removeLast() }
        let seconds = lines.last.flatMap { $0.hasPrefix("elapsed ") ? Double($0.dropFirst(8)) : nil } ?? .infinity
        lines.removeLast()
        result.stderr = lines.joined(separator: "\n")
        return (result, seconds)
    }

    @Test func aRefusedConnectionIsReportedWithinASecondWithTheURLAndTheWayOut() async throws {
        for command in [["pet", "list"], ["pet", "show", "some-id"]] {
            let (result, seconds) = try await Self.timed(command + ["--server", Self.nowhere, "--max-attempts", "1", "--connect-timeout", "30"])
            #expect(result.exitCode == 69, "\(result)")
            // A hidden retry would go on until the 30 s connect timeout; 0.03 s on a quiet machine.
            #expect(seconds < 10, "\(command) took \(seconds) s")
            #expect(result.stderr.contains("error: No connection."), "\(result.stderr)")
            #expect(result.stderr.contains("Nothing answered at \(Self.nowhere) (connection refused): start petspot-server there, "
                                           + "or pass --server URL"), "\(result.stderr)")
            #expect(!result.stderr.contains("report submit"), "a read resumes nothing: \(result.stderr)")
        }
    }

    /// Nothing listens there: a read says so at once instead of asking again (a write, which a
    /// server restarting may be about to take, keeps trying: `FirstHourCLITests`).
    @Test func aRefusedReadIsNotRetried() async throws {
        let (result, seconds) = try await Self.timed(["pet", "list", "--server", Self.nowhere, "--max-attempts", "3", "-v",
                                                      "--connect-timeout", "30"])
        #expect(result.exitCode == 69, "\(result)")
        #expect(!result.stderr.contains("read failed:"), "no retry: \(result.stderr)")
        // 0.1–0.2 s on its own (docs/performance.md); with the whole suite on two cores the
        // process's start alone took 3.7 s once, so the bound here is the single attempt's.
        #expect(seconds < 10, "a refused connection took \(seconds) s to tell")
        let json = try await CLIRunner.petspot(["pet", "list", "--server", Self.nowhere, "--max-attempts", "2", "--json"])
        #expect(json.exitCode == 69 && json.stderr.isEmpty, "\(json)")
        #expect(json.stdout.contains("\"exit_code\" : 69"), "\(json.stdout)")
    }
}
