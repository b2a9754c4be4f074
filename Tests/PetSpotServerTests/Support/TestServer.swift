import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PetSpot
@testable import PetSpotServer
import Synchronization

/// A server over a fresh data directory, driven through HummingbirdTesting's router client,
/// with direct access to its rows and photo files for the assertions.
struct TestServer {
    let root: URL
    let directory: DataDirectory
    let store: SQLiteAnnouncementStore
    let services: ServerServices
    /// The data directory's lock, held as the real server holds it.
    let lock: DataDirectoryLock

    static let publicURL = "http://photos.test"

    init(maxPhotoBytes: Int = 2_000_000, now: @escaping @Sendable () -> Date = { Date() }) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("petspot-server-tests-\(UUID().uuidString)")
        directory = DataDirectory(root: root.path)
        lock = try directory.prepare()
        store = try SQLiteAnnouncementStore(path: directory.databasePath)
        let photos = try DiskPhotoStore(root: directory.photosPath)
        services = ServerServices(
            store: store, photos: photos, hasher: PasswordHasher(cost: 4), throttle: AuthThrottle(store: store),
            clientAddress: ClientAddress(),
            processor: PhotoProcessor(maxPhotoBytes: maxPhotoBytes, maxPixels: 50_000_000, concurrency: 2),
            uploadDirectory: directory.uploadsPath, publicURL: PublicURL(configured: Self.publicURL),
            maxPhotoBytes: maxPhotoBytes, now: now)
    }

    /// Runs `body` against the routes, then removes the data directory.
    func test(_ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let app = Application(router: PetSpotServerApp.makeRouter(services: services))
        try await app.test(.router, body)
    }

    // MARK: what is stored

    func announcementCount() throws -> Int {
        try rows("SELECT COUNT(*) FROM announcement")
    }

    func idempotencyCount() throws -> Int {
        try rows("SELECT COUNT(*) FROM idempotency_key")
    }

    /// Every file under `photos/` and `tmp/`, relative to the data directory.
    func storedFiles() -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        var files: [String] = []
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root.path + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue,
               path.hasPrefix("photos/") || path.hasPrefix("tmp/") {
                files.append(path)
            }
        }
        return files.sorted()
    }

    private func rows(_ sql: String) throws -> Int {
        // A second connection, as another process would see the file.
        let reader = try SQLiteAnnouncementStore(path: directory.databasePath)
        defer { try? reader.close() }
        return try reader.count(sql)
    }
}


/// A clock the test moves by hand.
final class TestClock: Sendable {
    private let date = Mutex(Date())

    var now: Date { date.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        date.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
