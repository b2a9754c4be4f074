import ArgumentParser
import PhotoCLI

/// Prints a draft store error for people and turns it into the exit status it maps to.
enum DraftFailure {
    /// Prints `error: …` on stderr and returns the exit code to throw.
    static func report(_ error: DraftStoreError) -> ExitCode {
        Terminal.error("error: \(error)")
        return ExitStatus.of(error).exitCode
    }

    /// Runs `body`, reporting a ``DraftStoreError`` it throws.
    static func run<T>(_ body: () throws(DraftStoreError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw report(error)
        }
    }
}
