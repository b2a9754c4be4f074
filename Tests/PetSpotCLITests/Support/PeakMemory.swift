import Foundation

/// Runs a program to its end and reports its peak memory.
///
/// The process is started by a small Python parent that reads `RUSAGE_CHILDREN` after waiting for
/// it: its only child, so other tests' processes do not count. (Spawning straight from the test
/// process would not do: Linux charges a child the peak of the memory it was forked from, up to its
/// `exec`, so every child would look as big as the test process.)
enum PeakMemory {
    struct Run: Sendable {
        /// The exit code (negative: killed by that signal).
        var exitCode: Int32
        /// The largest resident set size the process reached, in bytes (at least the small Python parent's).
        var maxResidentBytes: Int
    }

    struct Unreadable: Error, CustomStringConvertible {
        let result: CLIResult
        var description: String { "the python3 wrapper printed no measurement: \(result)" }
    }

    private static let script = """
        import resource, subprocess, sys
        code = subprocess.run(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
        print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024)
        """

    static func run(_ executable: URL, _ arguments: [String]) async throws -> Run {
        let result = try await CLIRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, executable.path] + arguments)
        let fields = result.stdout.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard result.exitCode == 0, fields.count == 2 else { throw Unreadable(result: result) }
        return Run(exitCode: Int32(fields[0]), maxResidentBytes: fields[1])
    }
}
