import Foundation
import Logging

/// `petspot-server places import FILE`: reads GeoNames' populated places and replaces the
/// gazetteer of the embedded database (the data directory's, with the server stopped: its lock
/// is taken) or of PostgreSQL (replicas may keep running: the replacement is one transaction).
public enum PlacesImport {
    public struct Report: Sendable, CustomStringConvertible {
        public var places: Int
        public var names: Int

        public var description: String { "\(places) places with \(names) names" }
    }

    public static func run(file: String, dataDirectory: String, databaseURL: DatabaseURL?, logger: Logger) async throws -> Report {
        let places = try GeoNamesFile.read(file)
        guard !places.isEmpty else {
            throw GeoNamesFile.Failure(description: "\(file) holds no place; nothing was changed.")
        }
        guard let databaseURL else {
            let directory = DataDirectory(root: dataDirectory)
            let lock = try directory.prepare()
            defer { withExtendedLifetime(lock) {} }
            let store = try SQLiteAnnouncementStore(path: directory.databasePath)
            defer { try? store.close() }
            return Report(places: places.count, names: try await store.replacePlaces(places))
        }
        let store = PostgresAnnouncementStore(url: databaseURL, maxConnections: 2, logger: logger)
        return try await withThrowingTaskGroup(of: Report?.self) { group in
            group.addTask {
                await store.client.run()
                return nil
            }
            group.addTask {
                try await store.migrate()
                return Report(places: places.count, names: try await store.replacePlaces(places))
            }
            defer { group.cancelAll() }
            while let result = try await group.next() {
                if let report = result { return report }
            }
            throw CancellationError()
        }
    }
}
