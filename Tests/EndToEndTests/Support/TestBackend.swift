import Crypto
import Foundation
import GRDB
import TestProcesses
@testable import PetSpotServer
import TestEngines

/// Which storage the end-to-end servers run on: the embedded default (SQLite + photos in the
/// data directory), or — with `PETSPOT_TEST_BACKEND=postgres-s3` — PostgreSQL and an S3 bucket
/// (moto_server, signatures checked), so the same suite proves both. One cluster and one
/// emulator serve the whole test process; each data directory gets its own database and its
/// own prefix in the bucket, so a server restarted on the same folder finds its data again.
enum TestBackend: Sendable {
    case embedded
    case postgresS3

    static var configured: TestBackend {
        TestEngines.postgresS3IsConfigured ? .postgresS3 : .embedded
    }

    /// The engines, started on first use.
    static var engines: Result<TestEngines, any Error> { TestEngines.shared }

    /// Options and environment that put a server for `dataDirectory` on this backend; options
    /// the test gives itself are left alone.
    func settings(for dataDirectory: String, given arguments: [String]) throws -> (arguments: [String], environment: [String: String]) {
        guard case .postgresS3 = self else { return ([], [:]) }
        let engines = try Self.engines.get()
        let name = Self.name(for: dataDirectory)
        var added: [String] = []
        var environment: [String: String] = [:]
        if !arguments.contains("--database-url") {
            environment["PETSPOT_DATABASE_URL"] = try engines.postgres.database(name)
            added += ["--database-connections", "4"]
        }
        if !arguments.contains("--photo-store") {
            added += ["--photo-store", "s3://\(engines.s3.bucket)/\(name)", "--s3-endpoint", engines.s3.endpoint]
            environment["AWS_ACCESS_KEY_ID"] = engines.s3.credentials.accessKeyID
            environment["AWS_SECRET_ACCESS_KEY"] = engines.s3.credentials.secretAccessKey
        }
        return (added, environment)
    }

    /// The stored photos of the server on `dataDirectory`: key → size.
    func storedPhotos(dataDirectory: String) async throws -> [String: Int] {
        switch self {
        case .embedded:
            var photos: [String: Int] = [:]
            let root = dataDirectory + "/photos"
            for path in (try? FileManager.default.subpathsOfDirectory(atPath: root)) ?? [] {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
                photos[String(path.split(separator: "/").last ?? "")] = try FileManager.default.attributesOfItem(atPath: root + "/" + path)[.size] as? Int
            }
            return photos
        case .postgresS3:
            let engines = try Self.engines.get()
            let store = S3PhotoStore(location: try engines.s3.location(prefix: Self.name(for: dataDirectory)),
                                     credentials: engines.s3.credentials, logger: .init(label: "test"))
            var photos: [String: Int] = [:]
            for key in try await store.keys() {
                photos[key] = try await store.open(key)?.size
            }
            return photos
        }
    }

    /// A database and prefix name that follows from the folder.
    static func name(for dataDirectory: String) -> String {
        "t" + SHA256.hash(data: Data(dataDirectory.utf8)).prefix(8).map { String(format: "%02x", $0) }.joined()
    }
}

extension TestBackend {
    /// Everything the store of the server on `dataDirectory` holds, as bytes to search: the
    /// data directory's files (SQLite's database and WAL; not the password keys beside them,
    /// which are kept apart from the database), or `pg_dump` of its database.
    func storeDump(dataDirectory: String) async throws -> [UInt8] {
        switch self {
        case .embedded:
            var bytes: [UInt8] = []
            for path in (FileManager.default.subpaths(atPath: dataDirectory) ?? []) where !path.hasPrefix("photos") && path != "password-keys" {
                if let data = FileManager.default.contents(atPath: dataDirectory + "/" + path) { bytes += data }
            }
            return bytes
        case .postgresS3:
            let url = try await Self.engines.get().postgres.database(Self.name(for: dataDirectory))
            let process = try ChildProcess("/usr/bin/env", ["pg_dump", "--data-only", url], output: .pipe, error: .inherited)
            let data = process.standardOutput!.readDataToEndOfFile()
            process.waitForExit()
            return [UInt8](data)
        }
    }
}

extension TestBackend {
    /// Outbox rows of the server on `dataDirectory` still queued (messages and work), read from
    /// its database as another process would.
    func outboxBacklog(dataDirectory: String, databaseURL: String? = nil) async throws -> Int {
        switch self {
        case .embedded:
            // Read-only, without the store's migrations and closing checkpoint: the server owns the file.
            var configuration = Configuration()
            configuration.readonly = true
            configuration.busyMode = .timeout(5)
            let reader = try DatabaseQueue(path: DataDirectory(root: dataDirectory).databasePath, configuration: configuration)
            return try await reader.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM outbox WHERE state = 'queued'") ?? -1 }
        case .postgresS3:
            var url = databaseURL ?? ""
            if databaseURL == nil { url = try await Self.engines.get().postgres.database(Self.name(for: dataDirectory)) }
            let count = try await runProcess("/usr/bin/env", ["psql", url, "-At", "-c", "SELECT count(*) FROM outbox WHERE state = 'queued'"])
            return Int(count) ?? -1
        }
    }
}

extension TestBackend {
    /// Whether the database of the server on `dataDirectory` still holds `address` anywhere:
    /// the rows of the outbox and the subscriptions (SQLite), or all of `pg_dump`.
    func stillHolds(address: String, dataDirectory: String) async throws -> Bool {
        switch self {
        case .embedded:
            var configuration = Configuration()
            configuration.readonly = true
            let reader = try DatabaseQueue(path: DataDirectory(root: dataDirectory).databasePath, configuration: configuration)
            return try await reader.read { db in
                try Int.fetchOne(db, sql: """
                    SELECT (SELECT count(*) FROM outbox WHERE lower(recipient) = lower(?)) + (SELECT count(*) FROM alert_subscription WHERE lower(email) = lower(?))
                    """, arguments: [address, address]) ?? 1
            } > 0
        case .postgresS3:
            return try await storeDump(dataDirectory: dataDirectory).firstRange(of: Array(address.utf8)) != nil
        }
    }
}
