#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import PetSpotClient

/// The upload's progress counts what the server took, not what sits in this machine's send
/// buffer: a real TCP connection on 127.0.0.1 whose reader has not read yet.
@Suite struct SendQueueTests {
    @Test func bytesTheServerHasNotTakenAreSeenAsPendingUntilItReads() throws {
        // A listener with a small receive buffer, so that the writes back up into our send queue.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var small: Int32 = 4096
        setsockopt(listener, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) } }
        listen(listener, 1)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) } }
        let port = Int(UInt16(bigEndian: address.sin_port))
        #expect(SendQueue.pending(toPort: port) == 0)

        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(client) }
        let connected = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, length) } }
        try #require(connected == 0)
        _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
        let chunk = [UInt8](repeating: 0x5A, count: 65536)
        var handed = 0
        while handed < 64 << 20 {
            let n = chunk.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { break }
            handed += n
        }
        let pending = SendQueue.pending(toPort: port)
        #expect(handed > 0 && pending > 0 && pending <= handed, "handed \(handed), pending \(pending)")

        // The server reads everything: nothing is pending any more.
        let server = accept(listener, nil, nil)
        defer { close(server) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var taken = 0
        while taken < handed {
            let n = read(server, &buffer, buffer.count)
            if n <= 0 { break }
            taken += n
        }
        #expect(taken == handed)
        let deadline = Date().addingTimeInterval(5)
        while SendQueue.pending(toPort: port) > 0 && Date() < deadline { usleep(10_000) }
        #expect(SendQueue.pending(toPort: port) == 0)
    }
}
