#if canImport(Glibc)
import Glibc
#endif
import Foundation
import PhotoPipeline
import Synchronization
@testable import PhotoCache

/// A clock the test moves by hand.
final class ManualClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_750_000_000)) {
        current = Mutex(start)
    }

    func now() -> Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 += seconds }
    }
}

/// The real pipeline, counting how often it runs (a cache hit must not run it).
final class CountingPreparer: Sendable {
    private let calls = Atomic<Int>(0)

    var count: Int { calls.load(ordering: .relaxed) }

    func prepare(_ bytes: [UInt8], _ options: PrepareOptions) throws(PhotoError) -> PreparedPhoto {
        calls.add(1, ordering: .relaxed)
        return try PhotoPipeline.prepare(bytes, options: options)
    }
}

/// A disk with `freeBytes` left: writes succeed until then, and fail with ENOSPC after.
final class FullDiskWriter: CacheFileWriting {
    private let remaining: Mutex<Int>

    init(freeBytes: Int) {
        remaining = Mutex(freeBytes)
    }

    func write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Result<Int, SystemErrno> {
        remaining.withLock { remaining in
            guard remaining > 0 else { return .failure(SystemErrno(code: ENOSPC)) }
            let count = min(remaining, buffer.count)
            let written = Glibc.write(fd, buffer.baseAddress, count)
            guard written >= 0 else { return .failure(SystemErrno(code: errno)) }
            remaining -= written
            return .success(written)
        }
    }
}

extension DiskPhotoCache {
    /// A cache in `directory` with a hand-moved clock, a counting pipeline and, optionally, a
    /// replaced file writer.
    static func forTesting(_ directory: String, limits: CacheLimits = .default, clock: ManualClock = ManualClock(),
                           preparer: CountingPreparer = CountingPreparer(),
                           writer: any CacheFileWriting = SystemFileWriter()) throws -> DiskPhotoCache {
        try DiskPhotoCache(location: CacheLocation(root: URL(fileURLWithPath: directory), source: .flag), limits: limits,
                           writer: writer, preparer: { (bytes, options) throws(PhotoError) in try preparer.prepare(bytes, options) },
                           now: { clock.now() })
    }

    /// The names in the cache's `tmp/`.
    var temporaryFiles: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: layout.tmpPath)) ?? []
    }
}
