import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PetSpot
@testable import PetSpotServer
import Synchronization
import TestEngines
import Logging
import NIOCore
import PostgresNIO

/// A server over a fresh data directory, driven through HummingbirdTesting's router client,
/// with direct access to its rows and photo files for the assertions.
///
/// On SQLite and the data directory, or — with `PETSPOT_TEST_BACKEND=postgres-s3` — on a fresh
/// PostgreSQL database and a fresh prefix of an S3 bucket (``TestEngines``), so the same route
/// tests prove both.
struct TestServer {
    let root: URL
    let directory: DataDirectory
    let store: any AnnouncementStoring
    /// Settable before ``test(_:)`` (rate limits).
    var services: ServerServices
    /// The data directory's lock, held as the real server holds it.
    let lock: DataDirectoryLock
    let backend: Backend

    enum Backend {
        case embedded(SQLiteAnnouncementStore)
        /// The store, its pool's task, the bucket.
        case postgresS3(PostgresAnnouncementStore, Task<Void, Never>, S3PhotoStore)
    }

    static let publicURL = "http://photos.test"

    init(maxPhotoBytes: Int = 2_000_000, now: @escaping @Sendable () -> Date = { Date() }) async throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("petspot-server-tests-\(UUID().uuidString)")
        directory = DataDirectory(root: root.path)
        let photos: any PhotoStoring
        if TestEngines.postgresS3IsConfigured {
            let engines = try TestEngines.shared.get()
            let name = "rt_" + UUID().uuidString.prefix(8).lowercased()
            let postgres = PostgresAnnouncementStore(url: try DatabaseURL(try await engines.postgres.database(name)),
                                                     maxConnections: 4, leaseTimeout: .seconds(60), logger: Logger(label: "test"))
            let runner = Task { await postgres.client.run() }
            try await postgres.migrate()
            let bucket = S3PhotoStore(location: try engines.s3.location(prefix: name), credentials: engines.s3.credentials,
                                      logger: Logger(label: "test"))
            lock = try directory.prepare(embeddedDatabase: false)
            store = postgres
            photos = bucket
            backend = .postgresS3(postgres, runner, bucket)
        } else {
            lock = try directory.prepare()
            let sqlite = try SQLiteAnnouncementStore(path: directory.databasePath)
            store = sqlite
            photos = try DiskPhotoStore(root: directory.photosPath)
            backend = .embedded(sqlite)
        }
        let processor = PhotoProcessor(maxPhotoBytes: maxPhotoBytes, maxPixels: 50_000_000, concurrency: 2)
        services = ServerServices(
            store: store, photos: photos, keyring: Self.keyring, throttle: AuthThrottle(store: store),
            clientAddress: ClientAddress(),
            processor: processor, variants: PhotoVariants(photos: photos, processor: processor),
            uploadDirectory: directory.uploadsPath, publicURL: PublicURL(configured: Self.publicURL),
            maxPhotoBytes: maxPhotoBytes, now: now)
        services.gazetteer = Gazetteer(store: places)
    }

    /// The store's gazetteer (both stores keep one).
    var places: any PlaceStoring {
        switch backend {
        case .embedded(let sqlite): sqlite
        case .postgresS3(let postgres, _, _): postgres
        }
    }

    /// One key for every test server of the run, as replicas share theirs.
    static let keyring = try! PasswordKeyring.parse(PasswordKeyring.newKeyLine())

    /// Runs `body` against the routes, then removes the data directory (and stops the pool).
    func test(_ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        defer {
            try? FileManager.default.removeItem(at: root)
            if case .postgresS3(_, let runner, _) = backend { runner.cancel() }
        }
        let app = Application(router: PetSpotServerApp.makeRouter(services: services))
        try await app.test(.router, body)
    }

    // MARK: what is stored

    func announcementCount() async throws -> Int {
        switch backend {
        case .embedded: try rows("SELECT COUNT(*) FROM announcement")
        case .postgresS3(let postgres, _, _): try await postgres.count(table: .announcement)
        }
    }

    /// When the readiness check last wrote the database (`health_probe.at`), `nil` before the first.
    func healthProbeTime() async throws -> Double? {
        switch backend {
        case .embedded(let sqlite):
            // In microseconds, through the store's integer query (0: no row yet).
            let micros = try sqlite.count("SELECT CAST(at * 1000000 AS INTEGER) FROM health_probe")
            return micros == 0 ? nil : Double(micros) / 1_000_000
        case .postgresS3(let postgres, _, _):
            var at: Double?
            for try await value in try await postgres.client.query("SELECT at FROM health_probe", logger: Logger(label: "test")).decode(Double.self) {
                at = value
            }
            return at
        }
    }

    func idempotencyCount() async throws -> Int {
        switch backend {
        case .embedded: try rows("SELECT COUNT(*) FROM idempotency_key")
        case .postgresS3(let postgres, _, _): try await postgres.count(table: .idempotencyKey)
        }
    }

    /// Every stored photo (`photos/<key>`; on disk `photos/ab/<key>`) and every file under
    /// `tmp/`, relative to the data directory.
    func storedFiles() async throws -> [String] {
        var files = localFiles()
        if case .postgresS3(_, _, let bucket) = backend {
            files += try await bucket.keys().map { "photos/" + $0 }
        }
        return files.sorted()
    }

    /// Whether the stored data holds `needle` as it is: the SQLite file and its WAL, or every
    /// sealed response in PostgreSQL.
    func storedBytesContain(_ needle: Data) async throws -> Bool {
        switch backend {
        case .embedded:
            let database = try Data(contentsOf: URL(fileURLWithPath: directory.databasePath))
            let wal = (try? Data(contentsOf: URL(fileURLWithPath: directory.databasePath + "-wal"))) ?? Data()
            return database.range(of: needle) != nil || wal.range(of: needle) != nil
        case .postgresS3(let postgres, _, _):
            var found = false
            let rows = try await postgres.client.query("SELECT sealed_response FROM idempotency_key", logger: Logger(label: "test"))
            for try await buffer in rows.decode(ByteBuffer.self) where Data(buffer.readableBytesView).range(of: needle) != nil {
                found = true
            }
            return found
        }
    }

    private func localFiles() -> [String] {
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
