#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A photo written in full to the cache's `tmp/` folder and fsynced, waiting to be renamed into
/// `photos/`.
///
/// The file is held under `flock(2)` from creation until it is renamed or removed, so the
/// sweeper only removes temporary files whose writer is gone (it takes the lock without waiting,
/// and checks the name still belongs to the file it locked).
final class StagedFile {
    /// Where the file is now.
    private(set) var path: String
    private var fd: Int32
    private var isCommitted = false

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    deinit {
        discard()
    }

    /// Writes `bytes` to a new file in `directory`, then fsyncs it.
    /// - Throws: ``CacheError/diskFull(path:)`` when the disk fills up; the partial file is removed.
    static func write(_ bytes: [UInt8], in directory: String, namePrefix: String,
                      writer: any CacheFileWriting) throws(CacheError) -> StagedFile {
        let staged = try create(in: directory, namePrefix: namePrefix)
        do throws(CacheError) {
            try staged.writeAll(bytes, writer: writer)
            guard fsync(staged.fd) == 0 else { throw Posix.writeError(errno, path: staged.path) }
        } catch {
            staged.discard()
            throw error
        }
        return staged
    }

    /// Renames the file to `finalPath` in `directory` and fsyncs the folder, so the new name
    /// survives a power cut.
    func commit(to finalPath: String, in directory: String) throws(CacheError) {
        guard rename(path, finalPath) == 0 else { throw Posix.writeError(errno, path: finalPath) }
        isCommitted = true
        path = finalPath
        closeFile()
        try Posix.syncDirectory(directory)
    }

    /// Removes the file unless it was committed, and releases its lock.
    func discard() {
        if !isCommitted, fd >= 0 { unlink(path) }
        closeFile()
    }

    private func closeFile() {
        if fd >= 0 { close(fd) }
        fd = -1
    }

    private static func create(in directory: String, namePrefix: String) throws(CacheError) -> StagedFile {
        while true {
            var template = Array("\(directory)/\(namePrefix).XXXXXX".utf8CString)
            let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard fd >= 0 else { throw Posix.writeError(errno, path: path) }
            while flock(fd, LOCK_EX) != 0 && errno == EINTR {}
            // A sweeper may have locked and removed the new file between mkstemp and flock.
            var opened = stat(), named = stat()
            if fstat(fd, &opened) == 0, stat(path, &named) == 0, opened.st_ino == named.st_ino, opened.st_dev == named.st_dev {
                return StagedFile(path: path, fd: fd)
            }
            close(fd)
        }
    }

    private func writeAll(_ bytes: [UInt8], writer: any CacheFileWriting) throws(CacheError) {
        var done = 0
        while done < bytes.count {
            let result = bytes.withUnsafeBytes { raw in
                writer.write(fd, UnsafeRawBufferPointer(rebasing: raw[done...]))
            }
            switch result {
            case .success(let count) where count > 0:
                done += count
            case .success:
                throw Posix.writeError(ENOSPC, path: path)
            case .failure(let failure) where failure.code == EINTR:
                continue
            case .failure(let failure):
                throw Posix.writeError(failure.code, path: path)
            }
        }
    }
}
