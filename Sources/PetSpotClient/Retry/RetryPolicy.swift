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

    public static let `default` = RetryPolicy(maxAttempts: 50, maxTotalTime: .seconds(30), baseDelay: .milliseconds(500), maxDelay: .seconds(5))
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
    /// - Parameter retrying: which failures are tried again (by default every retryable one).
    /// - Parameter onRetry: told each retry's attempt number, wait and cause (for `--verbose`).
    public func run<T: Sendable>(
        _ operation: (_ attempt: Int) async throws(SubmissionError) -> T,
        retrying: (SubmissionError) -> Bool = { $0.isRetryable },
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
                guard retrying(error), attempt < maxAttempts, clock.now - start + wait <= maxTotalTime else { throw error }
                onRetry(attempt + 1, wait, error)
                try? await Task.sleep(for: wait)
                attempt += 1
            }
        }
    }
}

extension SubmissionError {
    /// Nothing listens at the server's address (the connection was refused): a read says so at
    /// once rather than asking again.
    public var isRefused: Bool {
        if case .offline(let cause) = self { return cause.lowercased().contains("refused") }
        return false
    }

    /// The server's `Retry-After`, in seconds.
    var retryAfter: Double? {
        if case .http(_, _, _, let retryAfter) = self { return retryAfter }
        return nil
    }
}

/// `Retry-After` values: delay-seconds or an HTTP-date (RFC 9110 §10.2.3), in its IMF-fixdate
/// form (`Sun, 06 Nov 1994 08:49:37 GMT`, the one servers send).
///
/// Read by hand rather than with `DateFormatter`, which depends on the locale and, in
/// swift-corelibs-foundation, leaked 128 bytes per call on some inputs (found by the
/// `client-response` fuzzer under LeakSanitizer).
public enum RetryAfter {
    /// Seconds to wait, or `nil` when the value is neither form.
    public static func seconds(_ value: String, now: Date = Date()) -> Double? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = digits(trimmed[...]) { return Double(seconds) }
        guard let date = imfFixdate(trimmed) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    private static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `day-name "," SP day SP month SP year SP hour ":" minute ":" second SP "GMT"`, the day in range for its month.
    static func imfFixdate(_ text: String) -> Date? {
        let fields = text.split(separator: " ", omittingEmptySubsequences: false)
        guard fields.count == 6, fields[0].count == 4, fields[0].last == ",", weekdays.contains(String(fields[0].dropLast())),
              fields[1].count == 2, let day = digits(fields[1]),
              let monthIndex = months.firstIndex(of: String(fields[2])),
              fields[3].count == 4, let year = digits(fields[3]), fields[5] == "GMT"
        else { return nil }
        let clock = fields[4].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
              let hour = digits(clock[0]), let minute = digits(clock[1]), let second = digits(clock[2]),
              hour < 24, minute < 60, second < 61
        else { return nil }
        let month = monthIndex + 1
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][monthIndex]
        guard (1...monthDays).contains(day) else { return nil }
        // Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    /// A run of ASCII digits (at most 12) as a number; anything else is `nil`.
    private static func digits(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 12, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(text)
    }
}
