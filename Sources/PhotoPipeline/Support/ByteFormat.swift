#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        return "\(fixed(value, decimals: value < 10 ? 1 : 0)) \(units[unit])"
    }

    /// `value` with `decimals` digits after the point, as printf's `%.Nf` writes it (what
    /// `String(format:)` gives, without Foundation's formatting layer in the photo commands).
    public static func fixed(_ value: Double, decimals: Int) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            let written = withVaList([Int32(decimals), value]) { vsnprintf(buffer.baseAddress, 64, "%.*f", $0) }
            guard written > 0 else { return "\(value)" }
            let bytes = UnsafeRawBufferPointer(start: buffer.baseAddress, count: min(Int(written), 63))
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
