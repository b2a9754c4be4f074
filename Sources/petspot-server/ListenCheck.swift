#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Foundation
import NIOCore

/// Whether the server can listen where it was told, asked before anything is created: a port
/// in use is said as such (exit 69, EX_UNAVAILABLE), with no data directory left half-made.
enum ListenCheck {
    /// Throws the exit for a port the server cannot bind (0, a free pick, always can).
    static func ensureFree(host: String, port: Int, option: String) throws {
        guard port != 0, let code = bindError(host: host, port: port) else { return }
        throw report(code, host: host, port: port, option: option)
    }

    /// The message and exit for a failed bind with `errno` `code`.
    static func report(_ code: Int32, host: String, port: Int, option: String) -> ExitCode {
        let message: String
        let exit: Int32
        switch code {
        case EADDRINUSE:
            message = "port \(port) on \(host) is in use by another program (another petspot-server?): stop it, or choose another \(option)."
            exit = 69  // EX_UNAVAILABLE
        case EACCES:
            message = "port \(port) on \(host) needs privileges this user does not have: choose a port above 1023 with \(option)."
            exit = 77  // EX_NOPERM
        case EADDRNOTAVAIL:
            message = "\(host) is not an address of this machine: choose one it has with --host (127.0.0.1, 0.0.0.0, ::)."
            exit = 68  // EX_NOHOST
        default:
            message = "cannot listen on \(host) port \(port): \(String(cString: strerror(code)))."
            exit = 71  // EX_OSERR
        }
        FileHandle.standardError.write(Data("error: \(message)\n".utf8))
        return ExitCode(exit)
    }

    /// The errno of binding `host:port` as the server will (SO_REUSEADDR), or `nil` when it can.
    private static func bindError(host: String, port: Int) -> Int32? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &result) == 0, let first = result else { return nil }  // the server says why
        defer { freeaddrinfo(result) }
        let fd = socket(first.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        return bind(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 ? nil : errno
    }

    /// The errno of a bind that failed after the check (another program was quicker), if `error` is one.
    static func bindErrno(_ error: any Error) -> Int32? {
        guard let io = error as? IOError, [EADDRINUSE, EACCES, EADDRNOTAVAIL].contains(io.errnoCode) else { return nil }
        return io.errnoCode
    }
}
