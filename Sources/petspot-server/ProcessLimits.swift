#if canImport(Glibc)
import Glibc
#endif
import Logging

/// What the server process sets for itself at start: how freed memory goes back to the
/// system, and how many files it may open.
enum ProcessLimits {
    /// Photo downloads pass through 64 KiB buffers read on NIO's thread pool and freed on its
    /// event loops. glibc keeps such freed blocks in per-thread arenas (and raises its mmap
    /// threshold as large blocks are freed), so 100 slow downloads left ~490 MB resident that
    /// was no longer used. Served from mmap instead, blocks of 64 KiB and more go back to the
    /// system when freed: 100 slow readers peak at ~60 MB and fall back to baseline
    /// (`scripts/attack-server.py slow-readers`).
    static func returnFreedBuffersToTheSystem() {
        #if canImport(Glibc)
        let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD in <malloc.h>
        _ = glibcMallopt(mmapThreshold, 64 * 1024)
        #endif
    }

    /// Lifts the soft open-files limit to the hard one (each connection, upload and the
    /// database use descriptors) and warns when `--max-connections` still does not fit.
    static func raiseOpenFileLimit(toFit connections: Int, uploads: Int, logger: Logger) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            _ = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        // A connection each, a temporary file per upload in flight, and room for the database.
        let needed = rlim_t(connections + uploads + 64)
        if limit.rlim_cur < needed {
            logger.warning("--max-connections \(connections) needs about \(needed) open files but the limit is \(limit.rlim_cur): raise ulimit -n or lower --max-connections")
        }
    }
}

#if canImport(Glibc)
/// glibc's `mallopt` (declared in `<malloc.h>`, which the Glibc module does not bring in).
@_silgen_name("mallopt")
private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
#endif
