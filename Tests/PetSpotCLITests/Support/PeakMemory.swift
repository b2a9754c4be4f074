import Foundation

/// Runs a program to its end and reports its peak memory and the CPU time it used.
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
        /// The CPU time it used, user and system, in microseconds.
        var cpuMicroseconds: Int
    }

    struct Unreadable: Error, CustomStringConvertible {
        let result: CLIResult
        var description: String { "the python3 wrapper printed no measurement: \(result)" }
    }

    private static let script = """
        import resource, subprocess, sys
        code = subprocess.run(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        print(code, usage.ru_maxrss * 1024, int((usage.ru_utime + usage.ru_stime) * 1e6))
        """

    static func run(_ executable: URL, _ arguments: [String]) async throws -> Run {
        let result = try await CLIRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, executable.path] + arguments)
        let fields = result.stdout.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard result.exitCode == 0, fields.count == 3 else { throw Unreadable(result: result) }
        return Run(exitCode: Int32(fields[0]), maxResidentBytes: fields[1], cpuMicroseconds: fields[2])
    }
}
