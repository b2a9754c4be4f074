#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// stdout for people and scripts, stderr for diagnostics and progress.
package enum Terminal {
    /// Whether standard error is a terminal (progress bars only then).
    package static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Whether standard output is a terminal (no image bytes are written to one).
    package static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// Whether standard input is a terminal, so a person can answer questions.
    package static var stdinIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// Prints a line on stdout, control characters (from file names, say) escaped.
    package static func out(_ line: String) {
        print(escaped(line))
    }

    /// Prints a line on stderr, control characters escaped.
    package static func error(_ line: String) {
        let text = escaped(line)
        writeError(text.hasSuffix("\n") ? text : text + "\n")
    }

    /// `text` with every control character but newline and tab written as `\u{1B}`, so a file
    /// named with terminal escape sequences cannot clear the screen or retitle the window.
    package static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        scalar != "\n" && scalar != "\t" && (scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value))
    }

    /// Rewrites the current stderr line (a progress bar); callers only use it on a terminal.
    package static func status(_ line: String) {
        writeError("\r\u{1B}[2K" + line)
    }

    /// Writes a question on stderr without ending the line, so the answer is typed after it.
    package static func prompt(_ text: String) {
        writeError(text)
    }

    package static func clearStatus() {
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

    /// `error: <file>: <message>`, without the file's name when the message already says it
    /// (not "error: nope.jpg: Cannot read nope.jpg: …").
    package static func fileError(_ file: String, _ message: String) {
        error("error: " + (message.contains(file) ? message : "\(file): \(message)"))
    }
}
