import ArgumentParser
import Foundation

/// Parses and prints ages: "30d", "12h", "45m", "2w", "90s", "1.5d", "30 days".
enum AgeParser {
    private static let units: [(names: [String], seconds: Double)] = [
        (["s", "sec", "secs", "second", "seconds"], 1),
        (["m", "min", "mins", "minute", "minutes"], 60),
        (["h", "hr", "hrs", "hour", "hours"], 3_600),
        (["d", "day", "days"], 86_400),
        (["w", "week", "weeks"], 604_800),
    ]

    /// The age in seconds, or `nil` when `text` is not a number followed by a unit.
    static func parse(_ text: String) -> TimeInterval? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let number = trimmed.prefix { $0.isNumber || $0 == "." }
        guard let value = Double(number), value >= 0 else { return nil }
        let unit = trimmed.dropFirst(number.count).trimmingCharacters(in: .whitespaces).lowercased()
        guard let seconds = units.first(where: { $0.names.contains(unit) })?.seconds else { return nil }
        let age = value * seconds
        return age.isFinite ? age : nil
    }

    /// "30 days", "12 hours", "1.5 days", "45 minutes", "90 seconds".
    static func string(_ seconds: TimeInterval) -> String {
        let (value, unit): (Double, String) = switch seconds {
        case 86_400...: (seconds / 86_400, "day")
        case 3_600...: (seconds / 3_600, "hour")
        case 60...: (seconds / 60, "minute")
        default: (seconds, "second")
        }
        let rounded = (value * 10).rounded() / 10
        let number = rounded == rounded.rounded() ? String(Int(rounded)) : String(format: "%.1f", rounded)
        return "\(number) \(unit)\(rounded == 1 ? "" : "s")"
    }

    /// The positive age `text` names, or a usage error naming `option` (a flag or variable).
    static func argument(_ text: String, option: String) throws -> TimeInterval {
        guard let age = parse(text), age >= 0 else {
            throw ValidationError("\(option) '\(text)' is not an age; use e.g. 30d, 12h, 45m or 2w.")
        }
        guard age > 0 else { throw ValidationError("\(option) must be more than 0 (got '\(text)'); e.g. 30d, 12h, 45m or 2w.") }
        return age
    }
}
