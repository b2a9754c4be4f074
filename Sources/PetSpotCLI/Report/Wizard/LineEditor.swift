#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
internal import CEditLine

/// Reads answers on a terminal with libedit's readline-compatible API
/// (https://thrysoee.dk/editline/, `editline(7)`): the line can be edited (arrow keys, Ctrl-A,
/// Ctrl-E, Ctrl-W, …), the up arrow brings back an answer given earlier in this run, and Tab
/// completes file names on the questions that ask for a path.
///
/// Prompts and echo go to stderr, so stdout keeps only the command's result. libedit installs no
/// signal handlers: Ctrl-C stays the command's (see ``restoreTerminal()``). libedit's state is the
/// process's: make one editor per process, and use it from one thread at a time.
final class LineEditor: Sendable {
    /// The terminal's settings before libedit switched it to character-at-a-time input.
    private let savedSettings: termios

    /// Prepares libedit on stdin (a terminal) and stderr.
    /// - Returns: `nil` when stdin's settings cannot be read or no UTF-8 character type can be set
    ///   (libedit misreads multibyte input without one); answers are then read as plain lines.
    init?() {
        var settings = termios()
        guard tcgetattr(STDIN_FILENO, &settings) == 0, petspot_edit_begin() == 0 else { return nil }
        savedSettings = settings
    }

    /// Shows `prompt` and reads one line, edited.
    /// - Parameters:
    ///   - prompt: The question; control characters must be escaped already.
    ///   - completion: What Tab completes.
    /// - Returns: The line, without its newline; `nil` at the end of input (Ctrl-D on an empty line).
    func readLine(prompt: String, completing completion: AnswerCompletion) -> String? {
        petspot_edit_complete_file_names(completion == .filePath ? 1 : 0)
        guard let line = readline(prompt) else { return nil }
        defer { free(line) }
        let text = String(cString: line)
        if text.contains(where: { !$0.isWhitespace }) { add_history(line) }
        return text
    }

    /// Puts back the terminal's settings, for a command interrupted while a question waits:
    /// libedit does not get to restore them then, and a shell would keep them (no echo).
    /// Safe to call from a signal source's handler on another thread.
    func restoreTerminal() {
        var settings = savedSettings
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &settings)
    }
}
