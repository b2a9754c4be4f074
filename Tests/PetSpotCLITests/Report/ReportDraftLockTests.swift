#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
@testable import PetSpotCLI
@testable import PhotoCLI

/// The draft lock in-process: a command waits for another command's moment, never for a wizard.
/// (Two takers in one process still contend: `flock` locks belong to each open of the file.)
@Suite struct ReportDraftLockTests {
    private func withStore<T>(_ body: (DraftStore) async throws -> T) async throws -> T {
        try await PhotoFixtures.withScratchFolder { folder in
            try await body(DraftStore(location: StateLocation(root: folder, source: .flag)))
        }
    }

    @Test func aWizardsLockRefusesAnotherTakerAtOnceNamingItsProcess() async throws {
        try await withStore { store in
            let wizard = try store.acquireLock(.missing, for: .command)
            wizard.hold(for: .wizard)
            let started = ContinuousClock.now
            #expect(throws: DraftStoreError.openElsewhere(path: store.url(for: .missing).path,
                                                          holder: "process \(getpid())" + Self.terminalSuffix)) {
                _ = try store.acquireLock(.missing, for: .command)
            }
            #expect(ContinuousClock.now - started < .seconds(2), "refused at once, not after a wait")
            // The other flow has its own lock.
            _ = try store.acquireLock(.found, for: .command)
            wizard.release()
            _ = try store.acquireLock(.missing, for: .command)
        }
    }

    @Test func aSubmissionsLockRefusesWizardsAndCommandsAtOnceSayingSo() async throws {
        try await withStore { store in
            let submission = try store.acquireLock(.missing, for: .submission)
            let started = ContinuousClock.now
            let expected = DraftStoreError.beingSubmitted(path: store.url(for: .missing).path,
                                                          holder: "process \(getpid())" + Self.terminalSuffix)
            #expect(throws: expected) { _ = try store.acquireLock(.missing, for: .command) }
            #expect(throws: expected) { _ = try store.acquireLock(.missing, for: .wizard) }
            #expect(ContinuousClock.now - started < .seconds(2), "refused at once, not after a wait")
            #expect(expected.description.contains("being sent by `petspot report submit`"))
            #expect(ExitStatus.of(expected) == .tempFail)
            submission.release()
            _ = try store.acquireLock(.missing, for: .command)
        }
    }

    @Test func aCommandsLockMakesTheNextTakerWaitForIt() async throws {
        try await withStore { store in
            nonisolated(unsafe) let first = try store.acquireLock(.missing, for: .command)
            let released = Released()
            let releaser = Thread {
                Thread.sleep(forTimeInterval: 0.3)
                released.mark()
                first.release()
            }
            releaser.start()
            _ = try store.acquireLock(.missing, for: .command)
            #expect(released.isMarked, "the second taker got the lock only once the first released it")
        }
    }

    @Test func aRecordLeftByAProcessThatEndedIsIgnored() {
        // pid_t's largest value is never a running process here.
        let stale = DraftLock.Holder(use: .wizard, pid: Int32.max, terminal: "/dev/pts/9")
        #expect(DraftLock.Holder(line: stale.line) == stale)
        #expect(!stale.isAlive)
        #expect(DraftLock.Holder(line: "wizard pid=12") == nil, "a record still being written is not read")
        #expect(DraftLock.Holder(line: "") == nil)
    }

    private static var terminalSuffix: String {
        isatty(STDIN_FILENO) == 1 ? ttyname(STDIN_FILENO).map { " on " + String(cString: $0) } ?? "" : ""
    }
}

/// A flag set on one thread and read on another.
private final class Released: @unchecked Sendable {
    private let lock = NSLock()
    private var marked = false

    func mark() { lock.withLock { marked = true } }
    var isMarked: Bool { lock.withLock { marked } }
}
