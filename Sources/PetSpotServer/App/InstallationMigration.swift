import Foundation
import Logging
import PetSpot

/// `petspot-server migrate`: copies an embedded installation (the SQLite file and the photos
/// in a data directory) into PostgreSQL and an S3-compatible bucket.
///
/// Photos go first, then the rows that point at them, batch by batch in the source's order
/// (so listings keep their order): a row never points at an object that is not there yet.
/// Every write is "insert if missing", so the migration can be run again, or after it was
/// killed half-way, and ends with the same data and no duplicates. The data directory's lock is
/// held throughout: a server still running on it is refused.
public struct InstallationMigration: Sendable {
    public let dataDirectory: String
    public let target: PostgresAnnouncementStore
    public let bucket: S3PhotoStore
    public var batchSize = 200
    /// PUTs in flight at once.
    public var parallelUploads = 8
    public let logger: Logger

    public init(dataDirectory: String, target: PostgresAnnouncementStore, bucket: S3PhotoStore, logger: Logger) {
        self.dataDirectory = dataDirectory
        self.target = target
        self.bucket = bucket
        self.logger = logger
    }

    /// What was copied and what the final check counted.
    public struct Report: Sendable, CustomStringConvertible {
        public var sourceAnnouncements = 0
        public var newAnnouncements = 0
        public var sourcePhotos = 0
        public var uploadedPhotos = 0
        public var idempotencyRecords = 0
        public var checkedAnnouncements = 0
        public var checkedPhotos = 0

        public var description: String {
            "\(sourceAnnouncements) announcement(s) (\(newAnnouncements) new) and \(sourcePhotos) photo(s) (\(uploadedPhotos) uploaded); "
                + "checked: \(checkedAnnouncements) of \(sourceAnnouncements) announcements and \(checkedPhotos) of \(sourcePhotos) photos are in the target"
        }
    }

    /// Copies everything; `progress` is called after each batch with (announcements done, total).
    /// - Throws: ``MigrationError/incomplete(_:)`` when the final check finds something missing.
    public func run(progress: @Sendable (Int, Int) -> Void = { _, _ in }) async throws -> Report {
        let directory = DataDirectory(root: dataDirectory)
        guard FileManager.default.fileExists(atPath: directory.databasePath) else {
            throw MigrationError.noSource("\(directory.databasePath) does not exist: --from-data-dir must name a petspot-server data directory")
        }
        let lock = try DataDirectoryLock(root: dataDirectory)
        defer { withExtendedLifetime(lock) {} }
        let source = try SQLiteAnnouncementStore(path: directory.databasePath)
        defer { try? source.close() }
        let photos = try DiskPhotoStore(root: directory.photosPath)
        try await target.migrate()
        try await bucket.checkAvailable()

        var report = Report()
        report.sourceAnnouncements = try await source.announcementCount()
        // Before writing anything: the target may hold only what an earlier run of this
        // migration wrote (else the listing's order would mix). (A NUL, which PostgreSQL's text
        // cannot hold, never comes out of the SQLite file: GRDB reads text up to it.)
        var sourceKeys: [String: String?] = [:]
        var position: Int64 = 0
        while true {
            let batch = try await source.announcements(afterPosition: position, limit: 1000)
            guard let last = batch.last else { break }
            for (_, announcement) in batch {
                sourceKeys[announcement.id.rawValue] = .some(announcement.photoKey)
            }
            position = last.position
        }
        let foreign = try await target.allIDs().subtracting(sourceKeys.keys)
        guard foreign.isEmpty else { throw MigrationError.targetInUse(foreign.count) }

        var present = try await bucket.keys()
        position = 0
        var copied = 0
        while true {
            let batch = try await source.announcements(afterPosition: position, limit: batchSize)
            guard let last = batch.last else { break }
            let keys = Set(batch.compactMap(\.announcement.photoKey))
            let missing = keys.subtracting(present)
            try await upload(missing, from: photos)
            present.formUnion(missing)
            report.uploadedPhotos += missing.count
            report.newAnnouncements += try await target.importAnnouncements(batch.map(\.announcement))
            copied += batch.count
            position = last.position
            progress(copied, report.sourceAnnouncements)
        }
        let records = try await source.idempotencyRecords(notBefore: Date().addingTimeInterval(-24 * 3600))
        for record in records { try await target.importIdempotencyRecord(record) }
        report.idempotencyRecords = records.count
        for trusted in try await source.trustedClients() {
            if let id = AnnouncementID(rawValue: trusted.id) { try await target.trustClient(trusted.client, for: id) }
        }
        let allKeys = Set(sourceKeys.values.compactMap { $0 })
        report.sourcePhotos = allKeys.count

        // The check reads the target again, not what this run believes it wrote: each row there
        // with the source's photo key, each of those photos in the bucket.
        let ids = Array(sourceKeys.keys)
        var matching = 0
        for start in stride(from: 0, to: ids.count, by: 1000) {
            let found = try await target.photoKeys(of: Array(ids[start..<min(start + 1000, ids.count)]))
            matching += found.filter { id, key in sourceKeys[id] == .some(key) }.count
        }
        let stored = try await bucket.keys()
        report.checkedAnnouncements = matching
        report.checkedPhotos = allKeys.intersection(stored).count
        guard matching == report.sourceAnnouncements, report.checkedPhotos == allKeys.count else {
            throw MigrationError.incomplete(report)
        }
        return report
    }

    private func upload(_ keys: Set<String>, from photos: DiskPhotoStore) async throws {
        let bucket = self.bucket, parallel = parallelUploads
        try await withThrowingTaskGroup(of: Void.self) { group in
            var running = 0
            for key in keys {
                if running >= parallel {
                    try await group.next()
                    running -= 1
                }
                guard let data = try await photos.data(for: key) else {
                    throw MigrationError.noSource("the photo \(key) that an announcement uses is missing from \(photos.root)")
                }
                let fileExtension = String(key.split(separator: ".").last ?? "jpg")
                group.addTask { _ = try await bucket.store(data, fileExtension: fileExtension) }
                running += 1
            }
            try await group.waitForAll()
        }
    }
}

/// Why `petspot-server migrate` stopped.
public enum MigrationError: Error, CustomStringConvertible {
    case noSource(String)
    case incomplete(InstallationMigration.Report)
    /// The target holds announcements that are not from this source.
    case targetInUse(Int)

    public var description: String {
        switch self {
        case .noSource(let reason): "Nothing to migrate: \(reason)."
        case .incomplete(let report): "The copy is incomplete: \(report). Run the same command again to copy what is missing."
        case .targetInUse(let count):
            "The target database holds \(count) announcement(s) that are not in this data directory. Migrate into an empty database "
                + "(or one only an earlier run of this migration wrote), so the listing keeps its order."
        }
    }
}
