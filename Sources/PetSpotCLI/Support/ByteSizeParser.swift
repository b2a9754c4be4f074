import ArgumentParser
import Foundation

/// Parses human byte sizes: "500000", "500KB", "1.2 GiB", "2M" (decimal for kB/MB/GB, binary for KiB/MiB/GiB and bare K/M/G).
enum ByteSizeParser {
    static func parse(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let number = trimmed.prefix { $0.isNumber || $0 == "." }
        guard let value = Double(number), value >= 0 else { return nil }
        let unit = trimmed.dropFirst(number.count).trimmingCharacters(in: .whitespaces).lowercased()
        let multiplier: Double
        switch unit {
        case "", "b": multiplier = 1
        case "kb": multiplier = 1e3
        case "mb": multiplier = 1e6
        case "gb": multiplier = 1e9
        case "k", "kib": multiplier = 1024
        case "m", "mib": multiplier = 1024 * 1024
        case "g", "gib": multiplier = 1024 * 1024 * 1024
        default: return nil
        }
        let bytes = value * multiplier
        guard bytes.isFinite, bytes < Double(Int.max) else { return nil }
        return Int(bytes.rounded())
    }

    /// The positive byte count `text` names, or a usage error naming `option` (a flag or variable)
    /// and what it should have been (`noun`, "size" or "byte size").
    static func argument(_ text: String, option: String, noun: String = "size") throws -> Int {
        guard let bytes = parse(text), bytes > 0 else {
            throw ValidationError("\(option) '\(text)' is not a \(noun); use e.g. 500MB, 512MiB or 1.2GiB.")
        }
        return bytes
    }
}
