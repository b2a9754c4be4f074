import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PhotoPipeline

/// Parses human byte sizes: "500000", "500KB", "1.2 GiB", "2M" (decimal for kB/MB/GB, binary for KiB/MiB/GiB and bare K/M/G).
package enum ByteSizeParser {
    package static func parse(_ text: String) -> Int? {
        ByteFormat.parse(text)
    }

    /// The positive byte count `text` names, or a usage error naming `option` (a flag or variable)
    /// and what it should have been (`noun`, "size" or "byte size"), with `examples` that fit it.
    package static func argument(_ text: String, option: String, noun: String = "size",
                         examples: String = "500MB, 512MiB or 1.2GiB") throws -> Int {
        guard let bytes = parse(text) else {
            throw ValidationError("\(option) '\(text)' is not a \(noun); use e.g. \(examples).")
        }
        guard bytes > 0 else { throw ValidationError("\(option) must be more than 0 bytes (got '\(text)'); e.g. \(examples).") }
        return bytes
    }

    /// A byte count in the units it was most likely given in: 1000000 → "1 MB", 1.5 GiB →
    /// "1.5 GiB", else as ``ByteFormat`` writes it (not 1MB echoed back as "977 KiB").
    package static func echo(_ bytes: Int) -> String {
        for (unit, size) in [("GiB", 1 << 30), ("GB", 1_000_000_000), ("MiB", 1 << 20), ("MB", 1_000_000), ("KiB", 1 << 10), ("kB", 1000)] {
            let value = Double(bytes) / Double(size)
            let tenths = value * 10
            guard value >= 1, abs(tenths - tenths.rounded()) <= 1e-6 * tenths else { continue }
            let text = tenths.rounded().truncatingRemainder(dividingBy: 10) == 0 ? String(Int(value.rounded())) : DecimalText.fixed(value, decimals: 1)
            return "\(text) \(unit)"
        }
        return ByteFormat.string(bytes)
    }
}
