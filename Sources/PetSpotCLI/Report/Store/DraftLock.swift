#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The lock on one flow's draft, across processes (`flock(2)` on `drafts/<flow>.lock`, as the
/// photo cache locks its index). The kernel releases it when a process dies.
///
/// A command that loads, changes and saves the draft holds it for a moment; the wizard holds it
/// for as long as it asks questions, so that nothing another command writes meanwhile is
/// overwritten by the wizard's next save. The holder writes who it is into the lock file
/// (``Holder``): a command waits while another command holds the lock, and is refused at once,
/// naming the process and its terminal, while a wizard holds it.
struct DraftLock {
    /// The lock file.
    let path: String
    /// The draft the lock guards, for messages.
    let draftPath: String

    /// How long a waiting command sleeps between two tries.
    private static let pollInterval: useconds_t = 20_000

    /// Takes the lock, creating the lock file (0600) when needed, and records `use` in it.
    ///
    /// Waits while another command holds the lock for a load-change-save; never waits for a wizard
    /// or a submission.
    /// - Parameter use: Why the lock is taken; ``Holder/Use/wizard`` marks it as held for long.
    /// - Returns: The held lock; it is released when the returned value is released.
    /// - Throws: ``DraftStoreError/openElsewhere(path:holder:)`` when a wizard in another process
    ///   holds the draft, ``DraftStoreError/beingSubmitted(path:holder:)`` when `report submit` does;
    ///   ``DraftStoreError/cannotWrite(path:reason:)`` when the lock cannot be taken.
    func acquire(for use: Holder.Use) throws(DraftStoreError) -> HeldDraftLock {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw .cannotWrite(path: path, reason: "cannot open the draft's lock file: \(String(cString: strerror(errno)))")
        }
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let failure = errno
            guard failure == EWOULDBLOCK || failure == EINTR else {
                close(fd)
                throw .cannotWrite(path: path, reason: "cannot lock the draft: \(String(cString: strerror(failure)))")
            }
            if let holder = Holder.read(from: fd), holder.use.isLong, holder.isAlive {
                close(fd)
                throw holder.use == .submission ? .beingSubmitted(path: draftPath, holder: holder.description)
                                                : .openElsewhere(path: draftPath, holder: holder.description)
            }
            // A command's load-change-save (or a holder that has not written its record yet): soon over.
            usleep(Self.pollInterval)
        }
        let held = HeldDraftLock(fd: fd)
        Holder.current(use).write(to: fd)
        return held
    }
}

/// A taken ``DraftLock``: the open lock file, whose closing releases the lock.
final class HeldDraftLock {
    private var fd: Int32

    fileprivate init(fd: Int32) {
        self.fd = fd
    }

    /// Records that the lock is now held for `use` (a command that goes on to ask questions).
    func hold(for use: DraftLock.Holder.Use) {
        guard fd >= 0 else { return }
        DraftLock.Holder.current(use).write(to: fd)
    }

    /// Releases the lock, clearing the holder's record; releasing twice does nothing.
    func release() {
        guard fd >= 0 else { return }
        _ = ftruncate(fd, 0)
        close(fd)
        fd = -1
    }

    deinit {
        release()
    }
}
