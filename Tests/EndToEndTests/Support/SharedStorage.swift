import Foundation
@testable import PetSpotServer
import TestEngines

/// One database and one bucket prefix that several `petspot-server` replicas share, on the
/// test process's PostgreSQL cluster and S3 emulator (``TestEngines``).
struct SharedStorage: Sendable {
    let databaseURL: String
    let prefix: String
    let engines: TestEngines

    /// A new, empty database and prefix.
    static func fresh(_ label: String) throws -> SharedStorage {
        let engines = try TestBackend.engines.get()
        let name = "\(label.lowercased().filter { $0.isLetter })_\(UUID().uuidString.prefix(8).lowercased())"
        return SharedStorage(databaseURL: try engines.postgres.database(name), prefix: name, engines: engines)
    }

    /// Options that put a server on this storage (the database URL goes in the environment).
    func arguments(s3Endpoint: String? = nil) -> [String] {
        ["--photo-store", "s3://\(engines.s3.bucket)/\(prefix)", "--s3-endpoint", s3Endpoint ?? engines.s3.endpoint,
         "--database-connections", "4"]
    }

    var environment: [String: String] {
        ["PETSPOT_DATABASE_URL": databaseURL, "AWS_ACCESS_KEY_ID": engines.s3.credentials.accessKeyID,
         "AWS_SECRET_ACCESS_KEY": engines.s3.credentials.secretAccessKey]
    }

    /// A replica with its own data directory (uploads in flight) on this storage.
    func replica(_ label: String, arguments extra: [String] = [], s3Endpoint: String? = nil,
                 environment more: [String: String] = [:]) throws -> ServerProcess {
        try ServerProcess(dataDirectory: try makeTemporaryDirectory(label), arguments: arguments(s3Endpoint: s3Endpoint) + extra,
                          environment: environment.merging(more) { $1 }, backend: .embedded)
    }

    var bucket: S3PhotoStore {
        get throws {
            S3PhotoStore(location: try engines.s3.location(prefix: prefix), credentials: engines.s3.credentials, logger: .init(label: "test"))
        }
    }

    /// One value from the database, through psql.
    func sql(_ query: String) async throws -> String {
        try await runProcess("/usr/bin/env", ["psql", databaseURL, "-At", "-c", query])
    }
}
