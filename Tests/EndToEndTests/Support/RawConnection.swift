#if canImport(Glibc)
import Glibc
#endif
import Foundation
import PetSpot

/// A plain TCP connection to 127.0.0.1, for requests sent in pieces.
final class RawConnection: @unchecked Sendable {
    let fd: Int32

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure("connect: \(String(cString: strerror(errno)))") }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw Failure("send: \(String(cString: strerror(errno)))") }
            offset += sent
        }
    }

    /// Reads until the end of a response head (or the connection closes); the text read.
    func receiveHead() throws -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !received.contains("\r\n\r\n") {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            received += buffer.prefix(count)
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Reads until the peer closes or `timeout` passes; the bytes, and whether it closed.
    func receiveUntilClosed(timeout seconds: Int) -> (bytes: [UInt8], closed: Bool) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count == 0 { return (received, true) }
            if count < 0 { return (received, errno == ECONNRESET) }
            received += buffer.prefix(count)
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

private extension Array where Element == UInt8 {
    func contains(_ text: String) -> Bool {
        let needle = Array(text.utf8)
        return count >= needle.count && (0...(count - needle.count)).contains { self[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}

extension RawConnection {
    /// The head of a photo upload to `created`, sent by hand so the body can be held back.
    static func uploadHead(to created: AnnouncementResponse, authorization: String? = nil, boundary: String = "b",
                           contentLength: Int, extraHeaders: String = "") -> [UInt8] {
        Array(("POST \(AnnouncementsAPI.photosPath(id: created.id)) HTTP/1.1\r\nHost: x\r\n\(extraHeaders)"
            + "Authorization: \(authorization ?? created.credentials.authorizationHeader)\r\n"
            + "Content-Type: multipart/form-data; boundary=\(boundary)\r\nContent-Length: \(contentLength)\r\n\r\n").utf8)
    }
}
