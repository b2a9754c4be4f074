#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Numbers as text for messages and CLI output.
package enum DecimalText {
    /// `value` with `decimals` digits after the point, as printf's `%.Nf` writes it (what
    /// `String(format:)` gives, without Foundation's formatting layer in the photo commands).
    package static func fixed(_ value: Double, decimals: Int) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            let written = withVaList([Int32(decimals), value]) { vsnprintf(buffer.baseAddress, 64, "%.*f", $0) }
            guard written > 0 else { return "\(value)" }
            let bytes = UnsafeRawBufferPointer(start: buffer.baseAddress, count: min(Int(written), 63))
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
