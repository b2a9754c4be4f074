#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import PhotoCache

/// Helpers for the cache commands' tests: a scratch cache folder, the human output's fields, and
/// a way to fill an index with many rows quickly.
enum CacheCLISupport {
    /// The value after "label:" in a human output ("  size:     77 KiB" → "77 KiB").
    static func field(_ label: String, in output: String) -> String? {
        output.split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix(label + ":") }
            .map { $0.dropFirst(label.count + 1).trimmingCharacters(in: .whitespaces) }
    }

    /// stdout parsed as one JSON object.
    static func jsonObject(_ text: String) throws -> [String: Any] {
        try require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Adds `count` index rows (no files) to the cache in `folder`, for tests of long listings.
    static func insertRows(_ count: Int, into folder: URL) throws {
        let cache = try DiskPhotoCache(location: CacheLocation(root: folder, source: .flag))
        let base = Date(timeIntervalSince1970: 1_750_000_000)
        try cache.index.write { db in
            for index in 0..<count {
                let key = Digest.sha256(Array("row \(index)".utf8))
                try EntryRow.insert(CacheEntry(key: key, path: CacheLayout.relativePath(key: key, fileExtension: "jpg"),
                                               mimeType: "image/jpeg", bytes: 1000 + index, width: 640, height: 480,
                                               sourceFileName: "photo-\(index).jpg", sourceDigest: key, fileDigest: key,
                                               capturedAt: nil, created: base + Double(index), lastAccess: base + Double(index)), db)
            }
        }
    }

    /// Mounts a tmpfs of `size` on `folder`; `false` where mounting is not allowed.
    static func mountTmpfs(_ folder: String, size: String) -> Bool {
        mount("tmpfs", folder, "tmpfs", 0, "size=\(size),mode=0700") == 0
    }

    static func unmount(_ folder: String) {
        umount2(folder, Int32(MNT_DETACH))
    }

    /// Fills the file system holding `folder` with a file, until writes fail.
    static func fill(_ folder: String) {
        let fd = open(folder + "/filler", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { close(fd) }
        let chunk = [UInt8](repeating: 0, count: 4096)
        while chunk.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        while chunk.withUnsafeBytes({ write(fd, $0.baseAddress, 1) }) > 0 {}
    }
}

/// `#require` outside a test function.
private func require<T>(_ value: T?) throws -> T {
    guard let value else { throw CocoaError(.coderReadCorrupt) }
    return value
}
