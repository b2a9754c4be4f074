/// Everything that can go wrong keeping report drafts on disk.
///
/// Each case carries its context; ``description`` is a full sentence saying what happened, why,
/// and what to do. Whatever the error, a draft file is never left half-written.
public enum DraftStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The drafts folder could not be created.
    case cannotCreateDirectory(path: String, reason: String)
    /// A draft could not be written (permissions, read-only or full file system).
    case cannotWrite(path: String, reason: String)
    /// A draft could not be saved because the file system is full.
    case diskFull(path: String)
    /// A draft file exists but could not be read.
    case unreadable(path: String, reason: String)
    /// A draft file is not a draft this version understands (damaged, or edited by hand).
    case corrupt(path: String, detail: String)
    /// A draft file was written by a newer PetSpot.
    case newerSchema(path: String, version: Int, supported: Int)
    /// A draft file could not be removed.
    case cannotRemove(path: String, reason: String)
    /// The draft is open in the wizard of another process (`holder`, e.g. "process 4242 on
    /// /dev/pts/3"), which would overwrite a change made now with its next save.
    case openElsewhere(path: String, holder: String)
    /// `petspot report submit` in another process is sending the draft.
    case beingSubmitted(path: String, holder: String)

    /// A stable machine-readable code for `--json`.
    public var code: String {
        switch self {
        case .cannotCreateDirectory: "draft-cannot-create-directory"
        case .cannotWrite: "draft-cannot-write"
        case .diskFull: "draft-disk-full"
        case .unreadable: "draft-unreadable"
        case .corrupt: "draft-corrupt"
        case .newerSchema: "draft-newer-schema"
        case .cannotRemove: "draft-cannot-remove"
        case .openElsewhere: "draft-open-elsewhere"
        case .beingSubmitted: "draft-being-submitted"
        }
    }

    /// A full sentence: what happened, why, and what to do about it.
    public var description: String {
        switch self {
        case .cannotCreateDirectory(let path, let reason):
            "Cannot create the drafts folder \(path): \(reason). Choose a folder you may write to with --state-dir or PETSPOT_STATE_DIR, or fix the permissions of this one."
        case .cannotWrite(let path, let reason):
            "Cannot save the draft \(path): \(reason); the previous version of the draft, if any, is unchanged. Free some space or fix the folder's permissions, or choose another folder with --state-dir or PETSPOT_STATE_DIR, and try again."
        case .diskFull(let path):
            "Cannot save the draft \(path): the disk is full; the previous version of the draft, if any, is unchanged. Free some space, or choose a folder on another disk with --state-dir or PETSPOT_STATE_DIR, and try again."
        case .unreadable(let path, let reason):
            "Cannot read the draft \(path): \(reason). Fix the file's permissions, or start over with `petspot report discard`."
        case .corrupt(let path, let detail):
            "The draft \(path) is damaged and cannot be read (\(detail)). Start over with `petspot report discard` for its flow, or restore the file from a backup."
        case .newerSchema(let path, let version, let supported):
            "The draft \(path) was saved by a newer PetSpot (draft format \(version); this one reads up to \(supported)). Continue it with that version, or start over with `petspot report discard`."
        case .cannotRemove(let path, let reason):
            "Cannot remove the draft \(path): \(reason). Fix the folder's permissions and run `petspot report discard` again."
        case .openElsewhere(let path, let holder):
            "The draft \(path) is open in the questions of another petspot (\(holder)), which would overwrite a change made now; nothing was changed. Answer there, or leave those questions with Ctrl-D (which saves the draft), then run this command again."
        case .beingSubmitted(let path, let holder):
            "The draft \(path) is being sent by `petspot report submit` (\(holder)); nothing was changed. Wait for it to end: once the announcement is made it clears the draft, and if it fails the draft stays for you to change and send again."
        }
    }
}
