/// Human-readable byte counts in binary units ("1.2 MiB"), as used in messages and CLI output.
public enum ByteFormat {
    /// `bytes` as B, KiB, MiB or GiB with one decimal where it helps.
    public static func string(_ bytes: Int) -> String {
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
