#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Dates as the cache commands print them, without a formatter per call (`cache list` prints
/// thousands).
enum TimestampText {
    /// Local time, "2025-01-02 10:11:12".
    static func local(_ date: Date) -> String {
        var time = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        localtime_r(&time, &parts)
        return format(parts, separator: " ", suffix: "")
    }

    /// ISO 8601 in UTC, "2025-01-02T10:11:12Z", for JSON.
    static func iso8601(_ date: Date) -> String {
        var time = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&time, &parts)
        return format(parts, separator: "T", suffix: "Z")
    }

    private static func format(_ parts: tm, separator: String, suffix: String) -> String {
        func pad(_ value: Int32, _ width: Int = 2) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1))-\(pad(parts.tm_mday))\(separator)"
            + "\(pad(parts.tm_hour)):\(pad(parts.tm_min)):\(pad(parts.tm_sec))\(suffix)"
    }
}
