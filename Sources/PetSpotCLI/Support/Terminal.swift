#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// stdout for people and scripts, stderr for diagnostics and progress.
enum Terminal {
    /// Whether standard error is a terminal (progress bars only then).
    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Whether standard input is a terminal, so a person can answer questions.
    static var stdinIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    static func out(_ line: String) {
        print(line)
    }

    static func error(_ line: String) {
        writeError(line.hasSuffix("\n") ? line : line + "\n")
    }

    /// Rewrites the current stderr line (a progress bar); callers only use it on a terminal.
    static func status(_ line: String) {
        writeError("\r\u{1B}[2K" + line)
    }

    /// Writes a question on stderr without ending the line, so the answer is typed after it.
    static func prompt(_ text: String) {
        writeError(text)
    }

    static func clearStatus() {
        writeError("\r\u{1B}[2K")
    }

    private static func writeError(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
            if written <= 0 { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
