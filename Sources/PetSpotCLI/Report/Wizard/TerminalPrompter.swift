#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PhotoCLI

/// Asks on the terminal: questions and messages go to stderr (unbuffered, so a question shows
/// before its answer is read, and stdout keeps only the command's result), answers come from stdin.
///
/// When stdin and stderr are both a terminal, answers are read with a ``LineEditor`` (editing,
/// history, Tab completion of a photo's path); otherwise as plain lines, exactly as typed.
struct TerminalPrompter: Prompting, Sendable {
    /// The line editor, when answers are typed on a terminal.
    private let editor: LineEditor?

    init() {
        editor = Terminal.stdinIsTerminal && Terminal.stderrIsTerminal ? LineEditor() : nil
    }

    func say(_ text: String) {
        Terminal.error(text)
    }

    func ask(_ question: String, completing completion: AnswerCompletion) -> String? {
        if let editor {
            guard let line = editor.readLine(prompt: Terminal.escaped(question), completing: completion) else {
                // libedit shows "^D"; end its line.
                Terminal.prompt("\n")
                return nil
            }
            return line
        }
        Terminal.prompt(question)
        guard let line = readLine(strippingNewline: true) else {
            // Ctrl-D leaves the cursor after the question; end its line.
            Terminal.prompt("\n")
            return nil
        }
        return line
    }

    /// Puts back the terminal's settings when the command is interrupted during a question.
    func restoreTerminal() {
        editor?.restoreTerminal()
    }
}
