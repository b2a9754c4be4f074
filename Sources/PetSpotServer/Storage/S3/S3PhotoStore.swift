import Crypto
import Foundation
import Logging
import NIOCore

/// ``PhotoStoring`` on an S3-compatible bucket: each photo one object under the location's
/// prefix, named by its key (`<sha256>.<ext>`), so a PUT of a key that exists is harmless and
/// replicas never overwrite each other with different bytes.
///
/// Downloads read the object in ranges of the route's chunk size, one request per chunk, so a
/// slow client holds one chunk, as with the disk store.
public struct S3PhotoStore: PhotoStoring {
    let client: S3Client

    /// - Parameter timeout: how long one request to the store may take before it is retried
    ///   (three attempts in all), so a stalled store answers 503 instead of holding requests.
    public init(location: S3Location, credentials: AWSCredentials, timeout: Duration = .seconds(10), logger: Logger) {
        client = S3Client(location: location, credentials: credentials,
                          timeout: .nanoseconds(timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000),
                          logger: logger)
    }

    public func store(_ data: [UInt8], as key: String) async throws {
        guard PhotoKey.isStored(key) else { throw StorageError.photoIO(path: key, reason: "it is not a photo's or a variant's key") }
        try await Self.mapped { try await client.put(key, body: data, contentType: PhotoKey.mimeType(of: key)) }
    }

    public func data(for key: String) async throws -> [UInt8]? {
        guard PhotoKey.isStored(key) else { return nil }
        return try await Self.mapped { try await client.get(key) }
    }

    public func open(_ key: String) async throws -> (any StoredPhotoReader)? {
        guard PhotoKey.isStored(key), let head = try await Self.mapped({ try await client.head(key) }) else { return nil }
        return S3PhotoReader(client: client, key: key, size: head.size)
    }

    public func remove(_ key: String) async throws {
        guard PhotoKey.isStored(key) else { return }
        try await Self.mapped { try await client.delete(key) }
    }

    /// One listing call: the bucket answers and takes these credentials.
    public func checkAvailable() async throws {
        _ = try await Self.mapped { try await client.list(maxKeys: 1) }
    }

    public func keys() async throws -> Set<String> {
        Set(try await objects().map(\.key))
    }

    /// Every photo and variant object with its age, page by page.
    func objects() async throws -> [(key: String, lastModified: Date?)] {
        var all: [(key: String, lastModified: Date?)] = []
        var token: String?
        repeat {
            let page = try await Self.mapped { try await client.list(continuation: token) }
            all += page.objects.filter { PhotoKey.isStored($0.key) }
            token = page.next
        } while token != nil
        return all
    }

    /// Offers every photo object older than `cutoff` to `removeIfUnreferenced` (which removes
    /// it when no announcement uses it, under the key's lock): another replica may have stored a
    /// photo and not yet recorded it, so young objects are left alone.
    /// - Returns: how many objects were removed.
    @discardableResult
    public func sweep(olderThan cutoff: Date, removeIfUnreferenced: (String) async throws -> Bool) async throws -> Int {
        var removed = 0
        for object in try await objects() {
            guard let modified = object.lastModified, modified < cutoff else { continue }
            if try await removeIfUnreferenced(object.key) { removed += 1 }
        }
        return removed
    }

    /// The store's failures as storage failures: unreachable or failing → unavailable (503).
    static func mapped<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as S3Error {
            if case .unavailable = error { throw StorageError.unreachable(what: "the photo store", reason: error.description) }
            throw StorageError.unavailable(path: "the photo store", reason: error.description)
        }
    }
}

/// One stored object, streamed from one ranged GET per download.
struct S3PhotoReader: StoredPhotoReader {
    let client: S3Client
    let key: String
    let size: Int

    func read(_ range: Range<Int>, chunkSize: Int, into consume: (ByteBuffer) async throws -> Void) async throws {
        guard !range.isEmpty else { return }
        try await S3PhotoStore.mapped { try await client.stream(key, range: range, into: consume) }
    }
}
