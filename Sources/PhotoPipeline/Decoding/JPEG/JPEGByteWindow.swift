#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A JPEG's bytes read in order, from memory or from a file through a window: enough to walk its
/// markers without holding a 16 MB file in memory (``JPEGScanScript``, ``JPEGRestartBands``).
final class JPEGByteWindow {
    private let source: JPEGSource
    let count: Int
    /// The bytes from `windowStart`: the first `windowCount` of `window` (one buffer, read into again).
    private var window: [UInt8] = []
    private var windowStart = 0
    private var windowCount = 0
    /// 256 KiB: each of its pages is faulted in once, by the first read into it (a 1 MiB window
    /// cost a 12 MP photo's cut 256 page faults before its band could start).
    private static let windowSize = 1 << 18

    /// A file's window starts as the header the probe read, so a walk that ends in the header (a
    /// baseline frame when progressive scans are looked for) reads nothing more.
    init(_ source: JPEGSource) {
        self.source = source
        count = source.count
        if case .file(_, let header) = source {
            window = header
            windowCount = header.count
        }
    }

    /// The byte at `offset`; 0 past the end (callers check `count` first).
    subscript(offset: Int) -> UInt8 {
        guard offset >= 0, offset < count else { return 0 }
        switch source {
        case .memory(let data): return data[offset]
        case .file:
            if offset < windowStart || offset >= windowStart + windowCount { load(offset) }
            return offset - windowStart < windowCount ? window[offset - windowStart] : 0
        }
    }

    private func load(_ offset: Int) {
        windowStart = offset
        windowCount = 0
        guard case .file(let file, _) = source, offset >= 0, offset < count else { return }
        if window.count < Self.windowSize {
            // Not zeroed: only the `windowCount` bytes a read wrote are ever looked at.
            window = [UInt8](unsafeUninitializedCapacity: Self.windowSize) { $1 = Self.windowSize }
        }
        let range = offset..<min(count, offset + Self.windowSize)
        let read = window.withUnsafeMutableBufferPointer { (buffer) -> Bool in
            do throws(PhotoError) { try file.read(range, into: buffer); return true } catch { return false }
        }
        if read { windowCount = range.count }
    }

    /// The offset of the first marker at or after `offset` in entropy-coded data: an 0xFF that is
    /// neither stuffed (0xFF00) nor a fill byte before a marker, nor a restart marker (RST0–7).
    func nextMarker(from offset: Int) -> Int? {
        var position = offset
        while position + 1 < count {
            guard let found = find(from: position) else { return nil }
            guard found + 1 < count else { return nil }
            let next = self[found + 1]
            if next == 0x00 || (0xD0...0xD7).contains(next) || next == 0xFF {
                position = found + (next == 0xFF ? 1 : 2)
                continue
            }
            return found
        }
        return nil
    }

    /// The offset just past `count` restart markers from `offset` in entropy-coded data, the first
    /// numbered `first` (mod 8) and each the next number; `nil` if any other marker, a misnumbered
    /// one or the end comes first. Stuffed zeros and fill bytes are skipped as by ``nextMarker(from:)``,
    /// with one `memchr` per 0xFF over the bytes in hand (a 12 MP photo's cut checks 12,000 markers).
    func skipRestartMarkers(from offset: Int, count: Int, first: Int) -> Int? {
        var position = offset, found = 0, reload = false
        while found < count {
            // Through the bytes in hand from `position`, up to an 0xFF they end with (read again
            // from there) or a marker that is not the next restart marker (`false`).
            let scanned = withBytes(at: position, reload: reload) { (bytes, available) -> Bool in
                var at = 0
                while found < count {
                    guard let hit = memchr(bytes + at, 0xFF, available - at) else {
                        at = available
                        break
                    }
                    let i = bytes.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    guard i + 1 < available else {
                        at = i
                        break
                    }
                    switch bytes[i + 1] {
                    case 0x00: at = i + 2
                    case 0xFF: at = i + 1
                    case let next where (0xD0...0xD7).contains(next) && Int(next - 0xD0) == (first + found) % 8:
                        found += 1
                        at = i + 2
                    default: return false
                    }
                }
                reload = at == 0
                position += at
                return true
            }
            // The end, a wrong marker, or an 0xFF that is the last byte even read afresh.
            guard scanned == true, !(reload && position + 1 >= self.count) else { return nil }
        }
        return position
    }

    /// `body` over the bytes from `offset` that are in hand (all of memory; the window, read from
    /// `offset` when it does not hold it or `reload` says so) and how many; `nil` at the end.
    private func withBytes<R>(at offset: Int, reload: Bool, _ body: (UnsafePointer<UInt8>, Int) -> R) -> R? {
        guard offset >= 0, offset < count else { return nil }
        switch source {
        case .memory(let data):
            return body(data.baseAddress! + offset, count - offset)
        case .file:
            if reload || offset < windowStart || offset >= windowStart + windowCount { load(offset) }
            guard offset >= windowStart, offset < windowStart + windowCount else { return nil }
            return window.withUnsafeBufferPointer { body($0.baseAddress! + (offset - windowStart), windowCount - (offset - windowStart)) }
        }
    }

    /// The offset of the next 0xFF at or after `offset`, through the bytes in hand a window at a time.
    private func find(from offset: Int) -> Int? {
        var position = offset
        while let (hit, available) = withBytes(at: position, reload: false, { bytes, available in
            (memchr(bytes, 0xFF, available).map { bytes.distance(to: $0.assumingMemoryBound(to: UInt8.self)) }, available)
        }) {
            if let hit { return position + hit }
            position += available
        }
        return nil
    }
}
