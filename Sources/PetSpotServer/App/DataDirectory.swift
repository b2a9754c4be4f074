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

    /// Creates the folders (0700: the database holds people's contact details) and empties
    /// `tmp/`, which only a crashed run can have left anything in.
    func prepare() throws(StorageError) {
        for path in [root, uploadsPath] {
            try Self.makeDirectories(path)
        }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: uploadsPath)) ?? [] {
            unlink(uploadsPath + "/" + name)
        }
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
