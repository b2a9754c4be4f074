#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

extension Process {
    /// Blocks the calling thread until the process has ended; its exit code, or the number of the
    /// signal that ended it (what `terminationStatus` reports).
    ///
    /// Tests never call `waitUntilExit()`: it spins the calling thread's run loop until Foundation
    /// notices the child's end, and on Linux, off the main thread, that notice can be missed, so the
    /// wait never returns and the whole test run hangs. `waitid` asks the kernel instead, with
    /// `WNOWAIT` so that the child is left for Foundation to reap. Read the status from here, not
    /// from `terminationStatus`, which traps until Foundation has caught up.
    public func waitForExit() -> Int32 {
        var info = siginfo_t()
        while waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOWAIT) != 0 {
            if errno == EINTR { continue }
            // ECHILD: Foundation reaped it first and is recording its status.
            while isRunning { usleep(1_000) }
            return terminationStatus
        }
        return info._sifields._sigchld.si_status
    }

    /// Waits for the process's end on a thread of its own, never on one of the cooperative pool's
    /// few threads; its exit code or signal number (see ``waitForExit()``).
    public func exitStatus() async -> Int32 {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: self.waitForExit()) }.start()
        }
    }
}

extension Process {
    /// `run()`, one process at a time across the test bundle. Foundation's `run()` on Linux,
    /// called from many threads at once, once crashed the test process inside itself (a bad
    /// read in its launch, seen once in several full runs); starting a process takes about a
    /// millisecond, so taking turns costs nothing measurable.
    public func runSerially() throws {
        try launchLock.withLock { _ in try run() }
    }
}

private let launchLock = Mutex(())
