#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A small tmpfs mounted for one test, so "the disk is full" and "the file system is read-only"
/// happen for real. Needs the right to mount (root in a container that allows it); ``make(size:readOnly:)``
/// returns `nil` where that is refused.
struct TmpfsMount {
    let directory: TemporaryDirectory
    var path: String { directory.path }

    /// Whether this process may mount a tmpfs (checked once by mounting one).
    static let isAvailable: Bool = {
        guard let probe = make(size: "64k") else { return false }
        probe.unmount()
        return true
    }()

    /// Mounts a tmpfs of `size` ("1m") on a new temporary folder.
    static func make(size: String, readOnly: Bool = false) -> TmpfsMount? {
        guard let directory = try? TemporaryDirectory("tmpfs") else { return nil }
        let flags = readOnly ? UInt(MS_RDONLY) : 0
        guard mount("tmpfs", directory.path, "tmpfs", flags, "size=\(size),mode=0700") == 0 else {
            directory.remove()
            return nil
        }
        return TmpfsMount(directory: directory)
    }

    func unmount() {
        umount2(path, Int32(MNT_DETACH))
        directory.remove()
    }

    /// Writes a file that takes all the space left; returns its path.
    @discardableResult
    func fill(name: String = "filler") -> String {
        let filler = path + "/" + name
        let fd = open(filler, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { close(fd) }
        let chunk = [UInt8](repeating: 0xAB, count: 4096)
        var single = [UInt8](repeating: 0xAB, count: 1)
        while chunk.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        while single.withUnsafeMutableBytes({ write(fd, $0.baseAddress, 1) }) > 0 {}
        return filler
    }
}
