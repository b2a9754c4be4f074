#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Runs a program to its end and reports its peak memory: `wait4` hands back the rusage of that one
/// child, so other tests' processes running at the same time do not count (as they would in
/// `getrusage(RUSAGE_CHILDREN)`). Output goes to /dev/null; only the status and the peak are kept.
enum PeakMemory {
    struct Run: Sendable {
        /// The exit code, or -1 when the process was killed by a signal.
        var exitCode: Int32
        /// The largest resident set size the process reached, in bytes.
        var maxResidentBytes: Int
    }

    struct SpawnFailed: Error { let errno: Int32 }

    /// Runs `executable` (give it absolute paths: it runs in the test process's directory).
    static func run(_ executable: URL, _ arguments: [String]) throws -> Run {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let status = posix_spawn(&pid, executable.path, &actions, nil, argv, environ)
        guard status == 0 else { throw SpawnFailed(errno: status) }
        var waitStatus: Int32 = 0
        var usage = rusage()
        while wait4(pid, &waitStatus, 0, &usage) < 0 && errno == EINTR {}
        let exited = waitStatus & 0x7F == 0
        // ru_maxrss is in KiB on Linux (bytes on macOS).
        #if os(Linux)
        let peak = usage.ru_maxrss * 1024
        #else
        let peak = usage.ru_maxrss
        #endif
        return Run(exitCode: exited ? (waitStatus >> 8) & 0xFF : -1, maxResidentBytes: peak)
    }
}
