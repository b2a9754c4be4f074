#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension DraftLock {
    /// Who holds a draft's lock, as its holder writes it into the lock file:
    /// `wizard pid=4242 tty=/dev/pts/3` (one line), so a command that finds the lock taken can
    /// tell a moment's save from a wizard waiting for answers, and name it.
    struct Holder: Equatable, CustomStringConvertible {
        /// Why the lock is held.
        enum Use: String {
            /// One command's load, change and save: over in a moment.
            case command
            /// The wizard, for as long as it asks questions.
            case wizard
            /// `report submit`, from before it reads the draft until it has cleared it: a change
            /// made meanwhile would not be sent, or (by the wizard's next save) would bring a sent
            /// draft back to be sent twice.
            case submission

            /// Whether another taker is refused at once instead of waiting for the holder.
            var isLong: Bool { self != .command }
        }

        var use: Use
        var pid: pid_t
        /// The holder's terminal (its stdin), when it has one.
        var terminal: String?

        /// This process, holding the lock for `use`.
        static func current(_ use: Use) -> Holder {
            let terminal = isatty(STDIN_FILENO) == 1 ? ttyname(STDIN_FILENO).map { String(cString: $0) } : nil
            return Holder(use: use, pid: getpid(), terminal: terminal)
        }

        /// The line written into the lock file.
        var line: String {
            "\(use.rawValue) pid=\(pid)" + (terminal.map { " tty=\($0)" } ?? "") + "\n"
        }

        /// Parses a complete record; `nil` for an empty, partly written or foreign one.
        init?(line: String) {
            guard line.hasSuffix("\n") else { return nil }
            var words = line.dropLast().split(separator: " ").map(String.init)
            guard !words.isEmpty, let use = Use(rawValue: words.removeFirst()) else { return nil }
            var pid: pid_t?
            var terminal: String?
            for word in words {
                if word.hasPrefix("pid=") { pid = pid_t(word.dropFirst(4)) }
                if word.hasPrefix("tty=") { terminal = String(word.dropFirst(4)) }
            }
            guard let pid, pid > 0 else { return nil }
            self.init(use: use, pid: pid, terminal: terminal)
        }

        init(use: Use, pid: pid_t, terminal: String?) {
            self.use = use
            self.pid = pid
            self.terminal = terminal
        }

        /// Whether the process is still running (a record left by a killed process is stale).
        var isAlive: Bool {
            kill(pid, 0) == 0 || errno == EPERM
        }

        /// "process 4242 on /dev/pts/3".
        var description: String {
            "process \(pid)" + (terminal.map { " on \($0)" } ?? "")
        }

        /// Reads the record in the lock file open as `fd`.
        static func read(from fd: Int32) -> Holder? {
            var buffer = [UInt8](repeating: 0, count: 512)
            let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            return Holder(line: String(decoding: buffer[..<count], as: UTF8.self))
        }

        /// Replaces the record in the lock file open (and locked) as `fd`; best effort, as the
        /// record only improves what a waiting command says.
        func write(to fd: Int32) {
            let bytes = Array(line.utf8)
            _ = ftruncate(fd, 0)
            _ = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        }
    }
}
