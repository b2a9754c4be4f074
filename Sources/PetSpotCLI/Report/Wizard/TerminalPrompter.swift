#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Asks on the terminal: questions and messages go to stderr (unbuffered, so a question shows
/// before its answer is read, and stdout keeps only the command's result), answers come from stdin.
struct TerminalPrompter: Prompting {
    func say(_ text: String) {
        Terminal.error(text)
    }

    func ask(_ question: String) -> String? {
        Terminal.prompt(question)
        guard let line = readLine(strippingNewline: true) else {
            // Ctrl-D leaves the cursor after the question; end its line.
            Terminal.prompt("\n")
            return nil
        }
        return line
    }
}
