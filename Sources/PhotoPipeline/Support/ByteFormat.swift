/// Human-readable byte counts in binary units ("1.2 MiB"), as used in messages and CLI output,
/// and the byte sizes people type ("500KB").
package enum ByteFormat {
    /// The byte count of "500000", "500KB", "1.2 GiB", "2M": decimal for kB/MB/GB, binary for
    /// KiB/MiB/GiB and bare K/M/G, any case, spaces allowed before the unit; `nil` for anything else.
    package static func parse(_ text: String) -> Int? {
        let trimmed = text.trimming { $0 == " " || $0 == "\t" }
        let number = trimmed.prefix { ("0"..."9").contains($0) || $0 == "." }
        guard let value = Double(number), value >= 0 else { return nil }
        let unit = trimmed.dropFirst(number.count).trimming { $0 == " " || $0 == "\t" }.lowercased()
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

    /// `bytes` as B, KiB, MiB or GiB with one decimal where it helps.
    package static func string(_ bytes: Int) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        if unit == 0 { return "\(bytes) B" }
        return "\(DecimalText.fixed(value, decimals: value < 10 ? 1 : 0)) \(units[unit])"
    }
}
