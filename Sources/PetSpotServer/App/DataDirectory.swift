#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The server's folder: `petspot-server.sqlite` (+ WAL), `photos/`, `tmp/` (incoming uploads).
struct DataDirectory: Sendable {
    let root: String

    var databasePath: String { root + "/petspot-server.sqlite" }
    var photosPath: String { root + "/photos" }
    var uploadsPath: String { root + "/tmp" }

    /// How old a file in `tmp/` must be before the start-up sweep removes it.
    static let sweepGrace: TimeInterval = 3600

    /// Takes the directory for this process and readies it: creates the folders (0700: the
    /// database holds people's contact details), locks the directory — before anything in it is
    /// touched, so a second server is refused without harming the first — creates the database
    /// file 0600 (SQLite gives its WAL and shared-memory files the same mode), and removes
    /// uploads in `tmp/` older than ``sweepGrace`` that a crashed run left.
    /// - Returns: the lock, to keep for the life of the server.
    /// - Parameter embeddedDatabase: whether the SQLite database lives here (not with `--database-url`).
    func prepare(embeddedDatabase: Bool = true, now: Date = Date()) throws(StorageError) -> DataDirectoryLock {
        try Self.makeDirectories(root)
        let lock = try DataDirectoryLock(root: root)
        try Self.makeDirectories(uploadsPath)
        if embeddedDatabase {
            let fd = open(databasePath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw .dataDirectory(path: databasePath, reason: String(cString: strerror(errno))) }
            close(fd)
        }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: uploadsPath)) ?? []
        where Self.isOlder(uploadsPath + "/" + name, than: now.addingTimeInterval(-Self.sweepGrace)) {
            unlink(uploadsPath + "/" + name)
        }
        return lock
    }

    /// Whether the file at `path` was last modified before `date`.
    static func isOlder(_ path: String, than date: Date) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return false }
        return Double(info.st_mtim.tv_sec) < date.timeIntervalSince1970
    }

    private static func makeDirectories(_ path: String) throws(StorageError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw .dataDirectory(path: path, reason: (error as NSError).localizedDescription)
        }
        guard access(path, W_OK | X_OK) == 0 else {
            throw .dataDirectory(path: path, reason: String(cString: strerror(errno)))
        }
    }
}
