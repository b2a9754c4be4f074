/// Where the wizard talks to a person: it shows lines and asks questions.
///
/// A protocol so the wizard runs against a terminal (``TerminalPrompter``) or a script of
/// answers in tests.
protocol Prompting {
    /// Shows `text` on its own line(s).
    func say(_ text: String)

    /// Shows `question` (which ends in ": ") and reads one answer.
    /// - Parameters:
    ///   - question: The question, with the current value in brackets.
    ///   - completion: What Tab completes while the answer is typed, where lines can be edited.
    /// - Returns: The line typed, without its newline; `nil` at the end of input (Ctrl-D).
    func ask(_ question: String, completing completion: AnswerCompletion) -> String?
}

/// What Tab completes in an answer typed on a terminal.
enum AnswerCompletion: Equatable, Sendable {
    /// Nothing: a species or a phone number has no completions.
    case nothing
    /// The names of files and folders, for a photo's path.
    case filePath
}
