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
        awaitFoundationsReaping()
        return info._sifields._sigchld.si_status
    }

    /// Foundation's own thread reaps the child and then touches this object: it must not be
    /// freed before (a Process released between the child's end and Foundation's notice was
    /// followed by crashes inside later launches). Waits for that notice a few seconds; a
    /// process Foundation never notices is kept for the rest of the run.
    private func awaitFoundationsReaping() {
        let deadline = Date().addingTimeInterval(5)
        while isRunning && Date() < deadline { usleep(1_000) }
        if isRunning { unnoticedProcesses.withLock { $0.append(UncheckedProcess(process: self)) } }
    }

    /// Waits for the process's end on a thread of its own, never on one of the cooperative pool's
    /// few threads; its exit code or signal number (see ``waitForExit()``).
    public func exitStatus() async -> Int32 {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: self.waitForExit()) }.start()
        }
    }
}

/// A process kept alive because Foundation has not finished with it.
private struct UncheckedProcess: @unchecked Sendable { let process: Process }
private let unnoticedProcesses = Mutex<[UncheckedProcess]>([])
