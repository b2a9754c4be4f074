import Dispatch
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

/// On SIGINT or SIGTERM, removes the temporary files of writes still in flight, then exits 130/143,
/// so an interrupted run leaves no partial output behind.
package final class InterruptionGuard: @unchecked Sendable {
    private var sources: [DispatchSourceSignal] = []

    /// Starts watching for SIGINT and SIGTERM.
    /// - Parameters:
    ///   - message: What to say on stderr before exiting.
    ///   - beforeExit: Runs first, on a background thread (e.g. putting back the terminal's settings).
    package convenience init(message: String = "interrupted: no partial output was left behind",
                             beforeExit: @escaping @Sendable () -> Void = {}) {
        self.init(message: { message }, beforeExit: beforeExit)
    }

    /// Starts watching for SIGINT and SIGTERM; `message` is made when the signal comes.
    package init(message: @escaping @Sendable () -> String, beforeExit: @escaping @Sendable () -> Void = {}) {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                beforeExit()
                FileIO.removePendingTemporaryFiles()
                Terminal.error("\n" + message())
                exit(128 + signalNumber)
            }
            source.resume()
            sources.append(source)
        }
    }

    package func release() {
        sources.forEach { $0.cancel() }
        for signalNumber in [SIGINT, SIGTERM] { signal(signalNumber, SIG_DFL) }
    }
}
