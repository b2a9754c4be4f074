#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PhotoPipeline
import Synchronization

/// On SIGINT or SIGTERM, removes the temporary files of writes still in flight, says what it was
/// told to, then exits 130/143, so an interrupted run leaves no partial output behind.
///
/// The signal is caught by a plain handler that only writes its number to a pipe; a thread of the
/// guard's own reads the pipe and does the rest. (A dispatch signal source would need the signal
/// blocked in every thread, and threads started before it, an HTTP client's say, would take the
/// signal and drop it.)
package final class InterruptionGuard: Sendable {
    private struct Active: Sendable {
        let message: @Sendable () -> String
        let beforeExit: @Sendable () -> Void
    }

    /// The guard in force, if any; only one at a time.
    private static let active = Mutex<Active?>(nil)

    /// Starts watching for SIGINT and SIGTERM.
    /// - Parameters:
    ///   - message: What to say on stderr before exiting.
    ///   - beforeExit: Runs first, on the guard's thread (e.g. putting back the terminal's settings).
    package convenience init(message: String = "interrupted: no partial output was left behind",
                             beforeExit: @escaping @Sendable () -> Void = {}) {
        self.init(message: { message }, beforeExit: beforeExit)
    }

    /// Starts watching for SIGINT and SIGTERM; `message` is made when the signal comes.
    package init(message: @escaping @Sendable () -> String, beforeExit: @escaping @Sendable () -> Void = {}) {
        Self.active.withLock { $0 = Active(message: message, beforeExit: beforeExit) }
        guard SignalPipe.writeEnd >= 0 else { return }
        signalPipeHandling = 0
        for signalNumber in [SIGINT, SIGTERM] { signal(signalNumber, signalPipeHandler) }
    }

    package func release() {
        for signalNumber in [SIGINT, SIGTERM] { signal(signalNumber, SIG_DFL) }
        Self.active.withLock { $0 = nil }
    }

    /// Runs on the pipe's reader thread for each signal caught.
    fileprivate static func handle(_ signalNumber: Int32) {
        guard let active = active.withLock({ $0 }) else {
            // Released meanwhile: the default action, as if no guard had been there.
            signal(signalNumber, SIG_DFL)
            raise(signalNumber)
            return
        }
        active.beforeExit()
        FileIO.removePendingTemporaryFiles()
        Terminal.error("\n" + active.message())
        exit(128 + signalNumber)
    }
}

/// The pipe from the signal handler to the thread that acts on the signal; made, with its reader
/// thread, the first time a guard is set up.
private enum SignalPipe {
    static let writeEnd: Int32 = {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return -1 }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let readEnd = ends[0]
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { argument in
            let readEnd = Int32(Int(bitPattern: argument))
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count == 1 {
                    InterruptionGuard.handle(Int32(byte))
                } else if count == 0 || errno != EINTR {
                    return nil
                }
            }
        }, UnsafeMutableRawPointer(bitPattern: Int(readEnd)))
        guard started == 0 else { return -1 }
        pthread_detach(thread)
        signalPipeWriteEnd = ends[1]
        return ends[1]
    }()
}

/// Read by the signal handler, which must not run Swift's lazy initialisation: set before any
/// handler is installed.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// The handler: only `write`, which is async-signal-safe, keeping the interrupted code's `errno`.
/// A second signal while the first is being handled ends the process at once.
private func signalPipeHandler(_ signalNumber: Int32) {
    let saved = errno
    if signalPipeHandling != 0 { _exit(128 + signalNumber) }
    signalPipeHandling = 1
    var byte = UInt8(truncatingIfNeeded: signalNumber)
    _ = write(signalPipeWriteEnd, &byte, 1)
    errno = saved
}

/// Set by the handler once it has passed a signal on.
nonisolated(unsafe) private var signalPipeHandling: Int32 = 0
