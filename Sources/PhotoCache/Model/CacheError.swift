import Foundation
import PhotoPipeline

/// Everything that can go wrong in the photo cache.
///
/// Each case carries its context; ``description`` is a full sentence saying what happened, why,
/// and what the person can do about it. Whatever the error, the cache is left consistent: no
/// index row ever points at a missing or half-written file.
public enum CacheError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The photo itself was refused or could not be read (not an image, damaged, too large, …).
    case photo(PhotoError)
    /// A folder of the cache could not be created or opened.
    case cannotCreateDirectory(path: String, reason: String)
    /// A file in the cache could not be written (permissions, read-only file system).
    case cannotWrite(path: String, reason: String)
    /// The disk (or the quota) is full.
    case diskFull(path: String)
    /// The index database is damaged or is not a database at all.
    case indexCorrupt(path: String, detail: String)
    /// The index could not be used for another reason (locked for too long, I/O error).
    case indexUnavailable(path: String, detail: String)
    /// Reading, renaming or removing a file in the cache failed.
    case ioError(path: String, reason: String)
    /// No entry has this key.
    case unknownEntry(key: String)

    /// A stable machine-readable code for `--json`.
    public var code: String {
        switch self {
        case .photo(let error): error.code
        case .cannotCreateDirectory: "cache-cannot-create-directory"
        case .cannotWrite: "cache-cannot-write"
        case .diskFull: "cache-disk-full"
        case .indexCorrupt: "cache-index-corrupt"
        case .indexUnavailable: "cache-index-unavailable"
        case .ioError: "cache-io-error"
        case .unknownEntry: "cache-unknown-entry"
        }
    }

    public var description: String {
        switch self {
        case .photo(let error):
            return error.description
        case .cannotCreateDirectory(let path, let reason):
            return "Cannot create the photo cache folder \(path): \(reason). Choose a folder you may write to with --cache-dir or PETSPOT_CACHE_DIR, or fix the permissions of this one."
        case .cannotWrite(let path, let reason):
            return "Cannot write \(path) in the photo cache: \(reason). Check that you may write to the cache folder, or choose another one with --cache-dir or PETSPOT_CACHE_DIR."
        case .diskFull(let path):
            return "The disk holding the photo cache is full, so \(path) could not be written; nothing was added and the cache is unchanged. Free some space (for example with `petspot cache prune --max-size 100MB`) and try again."
        case .indexCorrupt(let path, let detail):
            return "The photo cache's index \(path) is damaged (\(detail)), so the cache cannot be used. Run `petspot cache verify --repair` to rebuild the index from the cached photos."
        case .indexUnavailable(let path, let detail):
            return "The photo cache's index \(path) could not be used (\(detail)). If another petspot process is busy with the cache, wait for it and try again; otherwise run `petspot cache verify`."
        case .ioError(let path, let reason):
            return "Input/output error on \(path) in the photo cache: \(reason). Check the disk, then run `petspot cache verify --repair`."
        case .unknownEntry(let key):
            return "The photo cache has no entry with the key \(key); it may have been evicted. Add the photo again with `petspot photo add`."
        }
    }
}
