#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The memory of an image's planes (``YCbCrImage``): one mapping for all three, asked for in 2 MiB
/// pages where Linux gives them to whoever asks (transparent huge pages, "madvise" mode, as on
/// Debian). A 12 MP photo's 2048 px planes are about a thousand 4 KiB pages, each faulted in as the
/// resizers first write it and unmapped after; in 2 MiB pages they are three (docs/performance.md).
///
/// The cost: the mapping is rounded up to whole 2 MiB pages (a 4.7 MB image holds 6 MiB while it
/// lives; one of 1–2 MB, a half-empty page), and under THP's default `defrag=madvise` a fault in
/// it may compact memory first when the kernel has no free huge page (a stall on a fragmented,
/// long-running server). Images under 1 MiB come from malloc.
final class PlaneMemory: @unchecked Sendable {
    let base: UnsafeMutablePointer<UInt8>
    let count: Int
    /// The mapping to unmap, or `nil` when the bytes came from malloc.
    private let mapping: (start: UnsafeMutableRawPointer, length: Int)?

    static let hugePage = 2 << 20
    static let mappedFrom = 1 << 20

    /// `count` bytes, not zeroed (every byte is written before it is read).
    init(count: Int) {
        self.count = count
        #if os(Linux)
        if count >= Self.mappedFrom, let (start, length) = Self.mapAligned(count) {
            base = start.assumingMemoryBound(to: UInt8.self)
            mapping = (start, length)
            return
        }
        #endif
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: max(count, 1))
        mapping = nil
    }

    deinit {
        if let mapping {
            munmap(mapping.start, mapping.length)
        } else {
            base.deallocate()
        }
    }

    #if os(Linux)
    /// A mapping of `count` bytes rounded up to whole 2 MiB pages, starting on a 2 MiB boundary (a
    /// huge page must: the kernel does not align a mapping of this size by itself), with the kernel
    /// asked to back it with huge pages. Where it says no (THP off), the mapping is kept, in 4 KiB pages.
    private static func mapAligned(_ count: Int) -> (UnsafeMutableRawPointer, Int)? {
        let length = (count + hugePage - 1) / hugePage * hugePage
        guard let raw = mmap(nil, length + hugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              raw != MAP_FAILED else { return nil }
        let address = UInt(bitPattern: raw)
        let aligned = (address + UInt(hugePage - 1)) & ~UInt(hugePage - 1)
        let head = Int(aligned - address), tail = hugePage - head
        if head > 0 { munmap(raw, head) }
        let start = UnsafeMutableRawPointer(bitPattern: aligned)!
        if tail > 0 { munmap(start + length, tail) }
        _ = madvise(start, length, MADV_HUGEPAGE)
        return (start, length)
    }
    #endif
}

/// One plane's bytes inside a ``PlaneMemory``.
struct Plane: Sendable {
    let memory: PlaneMemory
    let offset: Int
    let count: Int

    func withUnsafeBufferPointer<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        try withExtendedLifetime(memory) { () throws(E) -> R in
            try body(UnsafeBufferPointer(start: memory.base + offset, count: count))
        }
    }

    /// A copy of the bytes (tests compare planes).
    var bytes: [UInt8] { withUnsafeBufferPointer { Array($0) } }
}
