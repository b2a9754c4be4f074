#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The built `petspot` executable, run as child processes started with `posix_spawn` and reaped
/// with `waitpid` (Foundation's `Process` can miss a child killed with SIGKILL when many run at
/// once, and then waits for ever).
enum PetSpotBinary {
    /// `petspot` next to the test bundle (`swift build --build-tests` builds both), or `$PETSPOT_BINARY`.
    static let url: URL = {
        if let override = ProcessInfo.processInfo.environment["PETSPOT_BINARY"], !override.isEmpty {
            return URL(fileURLWithPath: override)
        }
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("petspot")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("petspot")
    }()

    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: url.path) }

    struct SpawnFailed: Error, CustomStringConvertible {
        let code: Int32
        var description: String { "posix_spawn failed: \(String(cString: strerror(code)))" }
    }

    /// A started child whose stdout and stderr go to files (no pipe to drain).
    final class Child {
        let pid: pid_t
        let stdoutPath: String
        let stderrPath: String
        private var status: Int32?

        init(pid: pid_t, stdoutPath: String, stderrPath: String) {
            self.pid = pid
            self.stdoutPath = stdoutPath
            self.stderrPath = stderrPath
        }

        var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
        var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

        /// Waits for the child; its raw `waitpid` status.
        @discardableResult
        func wait() -> Int32 {
            if let status { return status }
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
            status = raw
            return raw
        }

        /// The exit code, or `nil` when a signal ended the child.
        var exitCode: Int32? {
            let raw = wait()
            return raw & 0x7F == 0 ? (raw >> 8) & 0xFF : nil
        }

        /// Whether a signal ended the child.
        var wasKilled: Bool { wait() & 0x7F != 0 }

        func kill() {
            Glibc.kill(pid, SIGKILL)
        }
    }

    /// Starts `petspot arguments…` with its output in files under `scratch`.
    static func start(_ arguments: [String], scratch: String, label: String = UUID().uuidString) throws -> Child {
        let stdoutPath = scratch + "/\(label).out"
        let stderrPath = scratch + "/\(label).err"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

        let environment = ProcessInfo.processInfo.environment.filter { $0.key != "PETSPOT_CACHE_DIR" }.map { "\($0.key)=\($0.value)" }
        let argv = ([url.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, url.path, &actions, nil, argv, envp)
        guard result == 0 else { throw SpawnFailed(code: result) }
        return Child(pid: pid, stdoutPath: stdoutPath, stderrPath: stderrPath)
    }
}
