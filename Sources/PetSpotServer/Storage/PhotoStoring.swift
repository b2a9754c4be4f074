import Foundation
import Crypto
import NIOCore

/// Where processed photos live, by content: the key is the SHA-256 of the bytes plus the
/// format's extension (`<64 hex>.jpg`), so a key never changes meaning and URLs can be cached
/// for ever.
///
/// ``DiskPhotoStore`` is the embedded default; an object store can be added behind the same
/// protocol.
public protocol PhotoStoring: Sendable {
    /// Stores the bytes durably before returning (a reader never sees a partial photo).
    /// - Returns: the key.
    func store(_ data: [UInt8], fileExtension: String) async throws -> String

    /// The photo's bytes, or `nil` when no photo has that key. Whole in memory: for tests and
    /// small reads; downloads use ``open(_:)``.
    func data(for key: String) async throws -> [UInt8]?

    /// A reader for the photo, or `nil` when no photo has that key. The reader sees the photo as
    /// it was when opened, even if it is removed meanwhile.
    func open(_ key: String) async throws -> (any StoredPhotoReader)?

    /// Removes a photo; removing one that is gone is not an error.
    func remove(_ key: String) async throws

    /// Every stored key.
    func keys() async throws -> Set<String>

    /// Throws ``StorageError/unavailable(path:reason:)`` when the store cannot be used now
    /// (for `/health` and the start).
    func checkAvailable() async throws
}

extension PhotoStoring {
    /// A local store is available when its folder can be written, which `/health` checks with
    /// its upload probe.
    public func checkAvailable() async throws {}
}

/// One stored photo, read in chunks so a download holds at most a chunk in memory.
public protocol StoredPhotoReader: Sendable {
    /// The photo's length in bytes.
    var size: Int { get }

    /// Reads `range` of the photo in chunks of at most `chunkSize` bytes, handing each to
    /// `consume` and waiting for it before the next read — a slow reader slows the reads.
    func read(_ range: Range<Int>, chunkSize: Int, into consume: (ByteBuffer) async throws -> Void) async throws
}

/// Photo keys: `<sha256 hex>.<jpg|png|webp>`; anything else never reaches the file system.
public enum PhotoKey {
    static let extensions: Set<String> = ["jpg", "png", "webp"]

    /// Whether `key` has the shape the store writes.
    public static func isValid(_ key: String) -> Bool {
        let parts = key.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, extensions.contains(String(parts[1])), parts[0].utf8.count == 64 else { return false }
        return parts[0].utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// The key of `data` stored as `fileExtension`: its SHA-256 in hex, a dot, the extension.
    public static func make(for data: [UInt8], fileExtension: String) -> String {
        let key = SHA256.hash(data: data).hex + "." + fileExtension
        precondition(isValid(key), "unsupported photo extension \(fileExtension)")
        return key
    }

    /// The MIME type a key's extension stands for.
    static func mimeType(of key: String) -> String {
        switch key.split(separator: ".").last {
        case "png": "image/png"
        case "webp": "image/webp"
        default: "image/jpeg"
        }
    }

    /// The content digest part of a key (used as the strong ETag).
    static func digest(of key: String) -> Substring {
        key.split(separator: ".")[0]
    }
}
