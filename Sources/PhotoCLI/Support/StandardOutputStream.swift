#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Buffered writes to stdout for long outputs that are printed while they are produced, stopping
/// quietly when the reader goes away (`petspot cache list --json | head`): SIGPIPE is ignored and
/// EPIPE ends the output instead of the process.
package final class StandardOutputStream {
    private var buffer: [UInt8] = []
    private let capacity: Int
    /// The reader closed the pipe (or another write error); further writes are dropped.
    package private(set) var isClosed = false

    package init(capacity: Int = 32 * 1024) {
        signal(SIGPIPE, SIG_IGN)
        self.capacity = capacity
        buffer.reserveCapacity(capacity + 4096)
    }

    /// Appends `text`; returns `false` once the reader is gone, so the producer can stop.
    @discardableResult
    package func write(_ text: String) -> Bool {
        guard !isClosed else { return false }
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= capacity { flush() }
        return !isClosed
    }

    /// Writes out what is buffered.
    package func flush() {
        var start = 0
        while start < buffer.count, !isClosed {
            let written = buffer.withUnsafeBytes { raw in
                Glibc.write(STDOUT_FILENO, raw.baseAddress! + start, raw.count - start)
            }
            if written < 0 {
                if errno == EINTR { continue }
                isClosed = true
            } else {
                start += written
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
