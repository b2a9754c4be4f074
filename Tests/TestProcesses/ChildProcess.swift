#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A program the tests start: `posix_spawn`, reaped by `waitpid` on a thread of its own.
///
/// The tests do not use Foundation's `Process` on Linux, for three reasons seen in this suite:
/// - a `Process` nobody calls `waitUntilExit()` on is never freed (its run-loop source holds it),
///   and the pipes and files handed to it stay open with it, thousands over a run of the suite;
/// - with that many descriptors open, `Process.run()` can crash: it lists `/proc/self/fd` and
///   copies each entry's whole 256-byte name field, reading past the end of glibc's buffer once
///   the listing fills it (swift-corelibs-foundation pull request 5472);
/// - `waitUntilExit()` spins the calling thread's run loop and, off the main thread, can miss
///   the child's end and wait for ever.
///
/// A child inherits only its standard input, output and error; pipe ends and files the child
/// was given are closed in this process at once, and the ends kept here are closed with the
/// `ChildProcess`, which nothing keeps alive once its child has ended.
public final class ChildProcess: @unchecked Sendable {
    /// Where the child's standard input comes from.
    public enum Input: Sendable {
        /// `/dev/null`: the child reads the end of input at once.
        case null
        /// A pipe; write to ``standardInput`` and close it for the end of input.
        case pipe
    }

    /// Where the child's standard output or error goes.
    public enum Output: Sendable {
        /// `/dev/null`.
        case null
        /// A pipe; read from ``standardOutput`` or ``standardError``.
        case pipe
        /// Appended to the file at this path (created when missing).
        case file(String)
        /// Wherever the child's standard output goes (for standard error only).
        case standardOutput
        /// The test process's own.
        case inherited
    }

    /// How the child ended.
    public struct Termination: Sendable, Equatable {
        /// The exit code, or the number of the signal that ended the child.
        public let status: Int32
        /// The child was ended by a signal (then ``status`` is its number).
        public let bySignal: Bool

        /// The exit code of a child that exited; `nil` after a signal.
        public var exitCode: Int32? { bySignal ? nil : status }

        public init(status: Int32, bySignal: Bool) {
            self.status = status
            self.bySignal = bySignal
        }
    }

    public struct SpawnFailed: Error, CustomStringConvertible {
        public let executable: String
        public let code: Int32
        public var description: String { "cannot start \(executable): \(String(cString: strerror(code)))" }
    }

    public let processIdentifier: pid_t
    /// The write end of the child's standard input, with ``Input/pipe``.
    public let standardInput: FileHandle?
    /// The read end of the child's standard output, with ``Output/pipe``.
    public let standardOutput: FileHandle?
    /// The read end of the child's standard error, with ``Output/pipe``.
    public let standardError: FileHandle?

    private let ending = NSCondition()
    private var outcome: Termination?
    private var waiters: [CheckedContinuation<Termination, Never>] = []

    /// Starts `executable` with `arguments`.
    /// - Parameters:
    ///   - environment: the child's whole environment (default: the test process's).
    ///   - directory: the child's working directory (default: the test process's).
    public init(_ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil,
                directory: String? = nil, input: Input = .null, output: Output = .null, error: Output = .null) throws {
        // posix_spawn looks a relative path up after changing directory: made absolute first.
        let executable = executable.hasPrefix("/") ? executable : FileManager.default.currentDirectoryPath + "/" + executable
        func check(_ result: Int32) throws {
            guard result == 0 else { throw SpawnFailed(executable: executable, code: result) }
        }
        var actions = posix_spawn_file_actions_t()
        try check(posix_spawn_file_actions_init(&actions))
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The child's ends of pipes, closed here once it has started (or failed to); the ends kept
        // here, closed too unless it started.
        var childEnds: [Int32] = [], keptEnds: [Int32] = []
        var spawned = false
        defer {
            childEnds.forEach { close($0) }
            if !spawned { keptEnds.filter { $0 >= 0 }.forEach { close($0) } }
        }

        func pipeEnds() throws -> (read: Int32, write: Int32) {
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { throw SpawnFailed(executable: executable, code: errno) }
            // Close-on-exec, for programs started some other way; ours close everything past 2.
            ends.forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) }
            return (ends[0], ends[1])
        }
        switch input {
        case .null:
            keptEnds.append(-1)
            try check(posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0))
        case .pipe:
            let ends = try pipeEnds()
            childEnds.append(ends.read)
            keptEnds.append(ends.write)
            try check(posix_spawn_file_actions_adddup2(&actions, ends.read, 0))
        }
        for (descriptor, destination) in [(Int32(1), output), (Int32(2), error)] {
            switch destination {
            case .null:
                keptEnds.append(-1)
                try check(posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_WRONLY, 0))
            case .pipe:
                let ends = try pipeEnds()
                childEnds.append(ends.write)
                keptEnds.append(ends.read)
                try check(posix_spawn_file_actions_adddup2(&actions, ends.write, descriptor))
            case .file(let path):
                keptEnds.append(-1)
                try check(posix_spawn_file_actions_addopen(&actions, descriptor, path, O_WRONLY | O_CREAT | O_APPEND, 0o644))
            case .standardOutput:
                keptEnds.append(-1)
                try check(posix_spawn_file_actions_adddup2(&actions, 1, descriptor))
            case .inherited:
                keptEnds.append(-1)
            }
        }
        if let directory { try check(Self.changeDirectory(&actions, to: directory)) }
        // Everything else the test process has open stays out of the child, close-on-exec or not.
        try check(Self.closeFrom(&actions, 3))

        var attributes = posix_spawnattr_t()
        try check(posix_spawnattr_init(&attributes))
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group: a signal meant for the test run's group does not reach it. No
        // signal blocked or ignored, whatever the starting thread blocks (a dispatch or pool
        // thread blocks most) or this process ignores (SIGPIPE).
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        try check(posix_spawnattr_setsigmask(&attributes, &none))
        try check(posix_spawnattr_setsigdefault(&attributes, &all))
        try check(posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let variables = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            variables.forEach { free($0) }
        }
        var pid: pid_t = 0
        try check(posix_spawn(&pid, executable, &actions, &attributes, argv, variables))
        spawned = true
        processIdentifier = pid
        func handle(_ descriptor: Int32) -> FileHandle? {
            descriptor < 0 ? nil : FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        }
        standardInput = handle(keptEnds[0])
        standardOutput = handle(keptEnds[1])
        standardError = handle(keptEnds[2])
        // The reaper holds the object only until the child has ended.
        Thread.detachNewThread { [self] in reap() }
    }

    /// Starts `executable` (a file URL) with `arguments`; see the other initialiser.
    public convenience init(_ executable: URL, _ arguments: [String] = [], environment: [String: String]? = nil,
                            directory: String? = nil, input: Input = .null, output: Output = .null, error: Output = .null) throws {
        try self.init(executable.path, arguments, environment: environment, directory: directory,
                      input: input, output: output, error: error)
    }

    /// Whether the child has not ended yet.
    public var isRunning: Bool { ended == nil }

    /// How the child ended, or `nil` while it runs.
    public var ended: Termination? { ending.withLock { outcome } }

    /// Sends `signal` to the child, unless it has ended (its pid may then be another process's).
    public func send(_ signal: Int32) {
        ending.lock()
        defer { ending.unlock() }
        if outcome == nil { kill(processIdentifier, signal) }
    }

    /// Sends SIGTERM.
    public func terminate() { send(SIGTERM) }

    /// Blocks the calling thread until the child has ended; how it ended.
    public func waitForTermination() -> Termination {
        ending.lock()
        defer { ending.unlock() }
        while outcome == nil { ending.wait() }
        return outcome!
    }

    /// Blocks until the child has ended; its exit code, or the number of the signal that ended it.
    @discardableResult
    public func waitForExit() -> Int32 { waitForTermination().status }

    /// Waits for the child's end without holding a thread of the cooperative pool; how it ended.
    public func termination() async -> Termination {
        await withCheckedContinuation { continuation in
            ending.lock()
            defer { ending.unlock() }
            if let outcome { continuation.resume(returning: outcome) } else { waiters.append(continuation) }
        }
    }

    /// Waits for the child's end; its exit code, or the number of the signal that ended it.
    @discardableResult
    public func exitStatus() async -> Int32 { await termination().status }

    /// Waits at most `timeout` for the child's end; `nil` when it is still running.
    public func termination(within timeout: Duration) async -> Termination? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline, !Task.isCancelled {
            if let ended { return ended }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return ended
    }

    /// Waits for the child's end and records it before reaping it: until then its pid cannot be
    /// another process's, so ``send(_:)`` (which checks the record under the same lock) never
    /// signals a stranger.
    private func reap() {
        var info = siginfo_t()
        var ended = Termination(status: 0, bySignal: false)
        while waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOWAIT) != 0 {
            // ECHILD would mean another wait took it, which nothing in the tests does: reported
            // as an exit with 255, so that no wait for it hangs.
            guard errno == EINTR else { ended = Termination(status: 255, bySignal: false); break }
        }
        if info._sifields._sigchld.si_pid == processIdentifier {
            let status = info._sifields._sigchld.si_status
            ended = Termination(status: status, bySignal: info.si_code != Int32(CLD_EXITED))
        }
        ending.lock()
        outcome = ended
        let waiting = waiters
        waiters = []
        ending.broadcast()
        ending.unlock()
        var raw: Int32 = 0
        while waitpid(processIdentifier, &raw, 0) < 0 && errno == EINTR {}
        waiting.forEach { $0.resume(returning: ended) }
    }

    /// glibc's `posix_spawn_file_actions_addchdir_np` and `…_addclosefrom_np` (2.29 and 2.34) are
    /// declared only for `_GNU_SOURCE`, which Swift's Glibc module does not define: looked up by name.
    private typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    private static let changeDirectoryAction: ChangeDirectory? = symbol("posix_spawn_file_actions_addchdir_np")
    private static let closeFromAction: CloseFrom? = symbol("posix_spawn_file_actions_addclosefrom_np")

    private static func symbol<Function>(_ name: String) -> Function? {
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), name).map { unsafeBitCast($0, to: Function.self) }
    }

    private static func changeDirectory(_ actions: inout posix_spawn_file_actions_t, to directory: String) -> Int32 {
        changeDirectoryAction?(&actions, directory) ?? ENOSYS
    }

    private static func closeFrom(_ actions: inout posix_spawn_file_actions_t, _ first: Int32) -> Int32 {
        // Without it (glibc before 2.34) only close-on-exec descriptors stay out of the child.
        closeFromAction?(&actions, first) ?? 0
    }
}
