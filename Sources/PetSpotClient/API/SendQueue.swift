#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// How much of what this process wrote to a server the server's side has not acknowledged yet:
/// the kernel's send queue (`tx_queue` in /proc/net/tcp, written but not acknowledged) of this
/// process's TCP connections to that port. Bytes handed to a socket are not bytes the server
/// took: on a fast link the kernel buffers megabytes, so a count of handed bytes reaches 100 %
/// long before the server has them. Linux only; elsewhere nothing is known to be pending.
enum SendQueue {
    /// Bytes queued on this process's connections to `port` (0 when none, or not on Linux).
    static func pending(toPort port: Int) -> Int64 {
        #if os(Linux)
        let inodes = socketInodes()
        guard !inodes.isEmpty else { return 0 }
        var total: Int64 = 0
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            guard let text = readWhole(table) else { continue }
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                // sl local rem st tx:rx tr:when retrnsmt uid timeout inode …
                guard fields.count > 9, let remotePort = fields[2].split(separator: ":").last.flatMap({ Int($0, radix: 16) }),
                      remotePort == port, inodes.contains(String(fields[9])),
                      let queued = fields[4].split(separator: ":").first.flatMap({ Int64($0, radix: 16) }) else { continue }
                total += queued
            }
        }
        return total
        #else
        return 0
        #endif
    }

    /// A /proc file whole: its size reads as 0, so it is read until the end.
    private static func readWhole(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The inodes of this process's sockets (`/proc/self/fd/N` → `socket:[INODE]`).
    private static func socketInodes() -> Set<String> {
        guard let dir = opendir("/proc/self/fd") else { return [] }
        defer { closedir(dir) }
        var inodes: Set<String> = []
        var buffer = [CChar](repeating: 0, count: 64)
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let count = readlink("/proc/self/fd/" + name, &buffer, buffer.count - 1)
            guard count > 0 else { continue }
            let target = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if target.hasPrefix("socket:[") { inodes.insert(String(target.dropFirst(8).dropLast())) }
        }
        return inodes
    }
}
