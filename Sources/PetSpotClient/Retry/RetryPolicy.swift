import Foundation

/// When and how long to wait before trying a failed request again: exponential backoff with
/// full jitter (a random wait between 0 and `base × 2^attempt`, capped), or the server's
/// `Retry-After` when it sent one; bounded by a number of attempts and a total time.
public struct RetryPolicy: Sendable, Hashable {
    /// Attempts in all, the first included.
    public var maxAttempts: Int
    /// No new attempt starts once this much time has passed since the first.
    public var maxTotalTime: Duration
    public var baseDelay: Duration
    public var maxDelay: Duration

    public static let `default` = RetryPolicy(maxAttempts: 5, maxTotalTime: .seconds(120), baseDelay: .milliseconds(500), maxDelay: .seconds(30))
    /// One attempt: never retried.
    public static let none = RetryPolicy(maxAttempts: 1, maxTotalTime: .zero, baseDelay: .zero, maxDelay: .zero)

    public init(maxAttempts: Int, maxTotalTime: Duration, baseDelay: Duration, maxDelay: Duration) {
        self.maxAttempts = maxAttempts
        self.maxTotalTime = maxTotalTime
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    /// The wait before attempt `attempt + 1` (attempt counts from 1).
    /// - Parameter retryAfter: the server's `Retry-After`, in seconds, which wins when given.
    public func delay(after attempt: Int, retryAfter: Double?, using generator: inout some RandomNumberGenerator) -> Duration {
        if let retryAfter { return min(.milliseconds(Int64(max(0, retryAfter) * 1000)), maxTotalTime) }
        let ceiling = min(maxDelay, baseDelay * (1 << min(attempt - 1, 20)))
        let milliseconds = Int64(Double(ceiling.components.seconds) * 1000 + Double(ceiling.components.attoseconds) / 1e15)
        return .milliseconds(milliseconds > 0 ? Int64.random(in: 0...milliseconds, using: &generator) : 0)
    }

    /// Runs `operation` until it succeeds, fails with an error that is not retryable, or the
    /// attempts or the time run out (the last error is thrown).
    /// - Parameter onRetry: told each retry's attempt number, wait and cause (for `--verbose`).
    public func run<T: Sendable>(
        _ operation: (_ attempt: Int) async throws(SubmissionError) -> T,
        onRetry: (_ attempt: Int, _ wait: Duration, _ cause: SubmissionError) -> Void = { _, _, _ in }
    ) async throws(SubmissionError) -> T {
        let clock = ContinuousClock()
        let start = clock.now
        var generator = SystemRandomNumberGenerator()
        var attempt = 1
        while true {
            do {
                return try await operation(attempt)
            } catch {
                let wait = delay(after: attempt, retryAfter: error.retryAfter, using: &generator)
                guard error.isRetryable, attempt < maxAttempts, clock.now - start + wait <= maxTotalTime else { throw error }
                onRetry(attempt + 1, wait, error)
                try? await Task.sleep(for: wait)
                attempt += 1
            }
        }
    }
}

extension SubmissionError {
    /// The server's `Retry-After`, in seconds.
    var retryAfter: Double? {
        if case .http(_, _, _, let retryAfter) = self { return retryAfter }
        return nil
    }
}

/// `Retry-After` values: delay-seconds or an HTTP-date (RFC 9110 §10.2.3).
public enum RetryAfter {
    /// Seconds to wait, or `nil` when the value is neither form.
    public static func seconds(_ value: String, now: Date = Date()) -> Double? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed), seconds >= 0 { return Double(seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: trimmed) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}
