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
    private static let windowSize = 1 << 20

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
        if window.count < Self.windowSize { window = [UInt8](repeating: 0, count: Self.windowSize) }
        let range = offset..<min(count, offset + Self.windowSize)
        let read = window.withUnsafeMutableBufferPointer { (buffer) -> Bool in
            do throws(PhotoError) { try file.read(range, into: buffer); return true } catch { return false }
        }
        if read { windowCount = range.count }
    }

    /// The offset of the first marker at or after `offset` in entropy-coded data: an 0xFF that is
    /// neither stuffed (0xFF00) nor a fill byte before a marker, nor, unless `restarts`, a restart
    /// marker (RST0–7).
    func nextMarker(from offset: Int, restarts: Bool = false) -> Int? {
        var position = offset
        while position + 1 < count {
            guard let found = find(from: position) else { return nil }
            guard found + 1 < count else { return nil }
            let next = self[found + 1]
            if next == 0x00 || (!restarts && (0xD0...0xD7).contains(next)) || next == 0xFF {
                position = found + (next == 0xFF ? 1 : 2)
                continue
            }
            return found
        }
        return nil
    }

    /// The offset of the next 0xFF at or after `offset`.
    private func find(from offset: Int) -> Int? {
        var position = offset
        while position < count {
            switch source {
            case .memory(let data):
                let base = data.baseAddress!
                guard let hit = memchr(base + position, 0xFF, count - position) else { return nil }
                return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            case .file:
                if position < windowStart || position >= windowStart + windowCount { load(position) }
                guard windowCount > 0 else { return nil }
                let found = window.withUnsafeBufferPointer { buffer -> Int? in
                    let start = position - windowStart
                    guard let hit = memchr(buffer.baseAddress! + start, 0xFF, windowCount - start) else { return nil }
                    return buffer.baseAddress!.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                }
                if let found { return windowStart + found }
                position = windowStart + windowCount
            }
        }
        return nil
    }
}
