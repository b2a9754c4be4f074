/// Where the wizard talks to a person: it shows lines and asks questions.
///
/// A protocol so the wizard runs against a terminal (``TerminalPrompter``) or a script of
/// answers in tests.
protocol Prompting {
    /// Shows `text` on its own line(s).
    func say(_ text: String)

    /// Shows `question` (which ends in ": ") and reads one answer.
    /// - Returns: The line typed, without its newline; `nil` at the end of input (Ctrl-D).
    func ask(_ question: String) -> String?
}
