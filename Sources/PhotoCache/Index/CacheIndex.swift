import Foundation
import GRDB
internal import GRDBSQLite

/// The cache's SQLite index: one GRDB connection (a `DatabaseQueue`) in WAL mode with a busy
/// timeout, so several processes can read while one writes and writers wait for each other
/// instead of failing. One connection rather than a pool keeps opening cheap for a command-line
/// run; within a process, the cache lock serializes the writes anyway.
///
/// The `-wal` and `-shm` files are kept when the last connection closes
/// ([`SQLITE_FCNTL_PERSIST_WAL`](https://sqlite.org/c3ref/c_fcntl_begin_atomic_write.html)), so a
/// later process can still open the index, and `cache prune` can still free space, on a full disk.
final class CacheIndex: Sendable {
    /// How long a writer waits for another process's transaction before giving up.
    static let busyTimeout: TimeInterval = 15

    let path: String
    private let queue: DatabaseQueue

    /// Opens (creating it if needed) the index at `path`. Does not migrate.
    /// - Parameter readOnly: open an existing index for reading only (no file is created or changed).
    /// - Throws: ``CacheError/indexCorrupt(path:detail:)`` when the file is not a usable database.
    init(path: String, readOnly: Bool = false) throws(CacheError) {
        self.path = path
        var configuration = Configuration()
        configuration.label = "PetSpotPhotoCache"
        configuration.busyMode = .timeout(Self.busyTimeout)
        configuration.readonly = readOnly
        if !readOnly { configuration.prepareDatabase { db in
            // WAL by hand rather than GRDB's `journalMode = .wal`, whose extra file checks cost a
            // millisecond on each open; a no-op once the index is in WAL mode.
            try db.execute(sql: "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
            var persist: Int32 = 1
            sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
        } }
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            throw Self.cacheError(error, path: path)
        }
    }

    /// Whether the schema is complete.
    func isMigrated() throws(CacheError) -> Bool {
        try read { db in try CacheSchema.migrator.hasCompletedMigrations(db) }
    }

    /// Creates or upgrades the schema; callers hold the cache lock.
    func migrate() throws(CacheError) {
        do {
            try CacheSchema.migrator.migrate(queue)
        } catch {
            throw Self.cacheError(error, path: path)
        }
    }

    /// Runs `body` in a read transaction (a consistent snapshot; never blocks on writers).
    func read<T>(_ body: (Database) throws -> T) throws(CacheError) -> T {
        do {
            return try queue.read(body)
        } catch {
            throw Self.cacheError(error, path: path)
        }
    }

    /// Runs `body` in an IMMEDIATE write transaction, committed when it returns.
    func write<T>(_ body: (Database) throws -> T) throws(CacheError) -> T {
        do {
            return try queue.write(body)
        } catch {
            throw Self.cacheError(error, path: path)
        }
    }

    /// Maps any error from GRDB (or a ``CacheError`` thrown inside a transaction) to a ``CacheError``.
    static func cacheError(_ error: any Error, path: String) -> CacheError {
        if let error = error as? CacheError { return error }
        guard let error = error as? DatabaseError else {
            return .indexUnavailable(path: path, detail: String(describing: error))
        }
        let detail = error.message ?? "SQLite error \(error.resultCode.rawValue)"
        switch error.resultCode {
        case .SQLITE_FULL:
            return .diskFull(path: path)
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            return .indexCorrupt(path: path, detail: detail)
        case .SQLITE_CANTOPEN, .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_AUTH:
            return .cannotWrite(path: path, reason: detail)
        case .SQLITE_IOERR:
            // SQLite says "disk I/O error" when it cannot grow its -wal or -shm file on a full disk.
            return Posix.hasNoSpaceLeft(path) ? .diskFull(path: path) : .ioError(path: path, reason: detail)
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return .indexUnavailable(path: path, detail: "another process kept it locked for more than \(Int(busyTimeout)) seconds")
        default:
            return .indexUnavailable(path: path, detail: detail)
        }
    }
}
