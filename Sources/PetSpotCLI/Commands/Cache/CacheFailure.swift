import ArgumentParser
import PhotoCache
import PhotoCLI

/// Prints a cache error for people and turns it into the exit status it maps to.
enum CacheFailure {
    /// Prints `error: …` on stderr and returns the exit code to throw.
    static func report(_ error: CacheError, context: String? = nil) -> ExitCode {
        if let context {
            Terminal.fileError(context, "\(error)")
        } else {
            Terminal.error("error: \(error)")
        }
        return ExitStatus.of(error).exitCode
    }

    /// Runs `body`, reporting a ``CacheError`` it throws.
    static func run<T>(_ body: () throws(CacheError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw report(error)
        }
    }
}
