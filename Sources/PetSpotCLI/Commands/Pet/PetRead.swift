import Foundation
import PetSpotClient
import PhotoCLI

/// A read from the server with the same retry rules as a submission (`--max-attempts`,
/// `--max-retry-time`): on a terminal one line per retry, with `--verbose` the cause. A refused
/// connection is told at once: nothing listens there, and a read is cheap to run again.
enum PetRead {
    static func run<T: Sendable>(_ client: PetSpotAPIClient, verbose: Bool, json: Bool,
                                 _ read: () async throws(SubmissionError) -> T) async throws(SubmissionError) -> T {
        let policy = client.configuration.retry
        return try await policy.run({ (_) throws(SubmissionError) in try await read() },
                                    retrying: { $0.isRetryable && !$0.isRefused }, onRetry: { attempt, wait, cause in
            guard !json else { return }
            if verbose {
                Terminal.error("read failed: \(cause.detail) — attempt \(attempt) in \(wait.formatted(.units(allowed: [.seconds, .milliseconds], width: .narrow)))")
            } else if Terminal.stderrIsTerminal {
                Terminal.error(RetryNotice.line(attempt: attempt, of: policy.maxAttempts, wait: wait, cause: cause))
            }
        })
    }
}
