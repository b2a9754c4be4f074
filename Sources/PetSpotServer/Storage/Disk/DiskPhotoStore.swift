#if canImport(Glibc)
import Glibc
#endif
import Crypto
import Foundation
import PhotoPipeline

/// ``PhotoStoring`` on the local disk: `photos/ab/<sha256>.<ext>` under the data directory,
/// each written to a temporary file, fsynced, renamed into place, and the folder fsynced, so a
/// crash leaves either the whole photo or none (plus at most a temporary file that
/// ``sweep(keeping:)`` removes at the next start).
public struct DiskPhotoStore: PhotoStoring {
    public let root: String

    /// - Parameter root: the folder that holds the shard folders; created when missing.
    public init(root: String) throws {
        self.root = root
        try Self.makeDirectory(root)
    }

    public func store(_ data: [UInt8], as key: String) async throws {
        guard PhotoKey.isStored(key) else { throw StorageError.photoIO(path: key, reason: "it is not a photo's or a variant's key") }
        let path = self.path(for: key)
        if let size = Self.regularFileSize(path), size == data.count { return }
        let shard = (path as NSString).deletingLastPathComponent
        try Self.makeDirectory(shard)
        do {
            try FileIO.writeAtomically(data, to: path, mode: 0o600)
        } catch {
            // Whatever stops a write (no space, a quota, a read-only or failing disk), the
            // store cannot take photos now.
            throw StorageError.unavailable(path: path, reason: error.description)
        }
        Self.syncDirectory(shard)
    }

    public func data(for key: String) async throws -> [UInt8]? {
        guard PhotoKey.isStored(key) else { return nil }
        let path = self.path(for: key)
        guard Self.regularFileSize(path) != nil else { return nil }
        do {
            return try FileIO.read(path)
        } catch {
            throw StorageError.photoIO(path: path, reason: error.description)
        }
    }

    public func open(_ key: String) async throws -> (any StoredPhotoReader)? {
        guard PhotoKey.isStored(key) else { return nil }
        return try DiskPhotoReader(path: path(for: key))
    }

    public func remove(_ key: String) async throws {
        guard PhotoKey.isStored(key) else { return }
        let path = self.path(for: key)
        if unlink(path) != 0 && errno != ENOENT {
            throw StorageError.photoIO(path: path, reason: String(cString: strerror(errno)))
        }
    }

    public func keys() async throws -> Set<String> {
        var keys: Set<String> = []
        for shard in (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [] {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: root + "/" + shard)) ?? [] where PhotoKey.isStored(name) {
                keys.insert(name)
            }
        }
        return keys
    }

    /// Removes what a crash can leave: temporary files, and photos no announcement uses (with
    /// their variants), when
    /// last modified before `olderThan` (a file an upload is writing right now is never taken).
    /// Run at start-up, before the server takes requests.
    /// - Returns: how many files were removed.
    @discardableResult
    public func sweep(keeping referenced: Set<String>, olderThan cutoff: Date = .distantFuture) -> Int {
        var removed = 0
        for shard in (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [] {
            let folder = root + "/" + shard
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            where !(PhotoKey.owner(of: name).map(referenced.contains) ?? false) && DataDirectory.isOlder(folder + "/" + name, than: cutoff) {
                if unlink(folder + "/" + name) == 0 { removed += 1 }
            }
        }
        return removed
    }

    func path(for key: String) -> String {
        "\(root)/\(key.prefix(2))/\(key)"
    }

    static func makeDirectory(_ path: String) throws {
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw StorageError.dataDirectory(path: path, reason: String(cString: strerror(errno)))
        }
    }

    static func syncDirectory(_ path: String) {
        let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    static func regularFileSize(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(info.st_size)
    }
}
