import Foundation
import Crypto
import NIOCore

/// Where processed photos live, by content: a photo's key is the SHA-256 of its bytes plus the
/// format's extension (`<64 hex>.jpg`), a variant's follows from its photo's digest and its
/// parameters (``PhotoKey``), so a key never changes meaning and URLs can be cached for ever.
///
/// ``DiskPhotoStore`` is the embedded default; ``S3PhotoStore`` keeps them in a bucket.
public protocol PhotoStoring: Sendable {
    /// Stores the bytes durably before returning (a reader never sees a partial photo).
    /// - Returns: the key.
    func store(_ data: [UInt8], fileExtension: String) async throws -> String

    /// Stores bytes under a key derived elsewhere (a variant's, ``PhotoVariant``), durably
    /// before returning; storing the same key again is harmless (the bytes follow from the key).
    func store(_ data: [UInt8], as key: String) async throws

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
    public func store(_ data: [UInt8], fileExtension: String) async throws -> String {
        let key = PhotoKey.make(for: data, fileExtension: fileExtension)
        try await store(data, as: key)
        return key
    }

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

extension PhotoStoring {
    /// Removes a photo and every size made of it (``PhotoVariant/stored(of:)``).
    func removeWithSizes(_ key: String) async throws {
        try await remove(key)
        for variant in PhotoVariant.stored(of: key) { try await remove(variant) }
    }
}
