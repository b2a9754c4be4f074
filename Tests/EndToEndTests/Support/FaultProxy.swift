#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// A small HTTP/1.1 proxy on 127.0.0.1 in front of the real `petspot-server`, for the faults a
/// real server does not produce on demand. Each connection carries one request; the requests
/// `matching` picks (photo uploads, `POST …/photos`, unless told otherwise) meet the scripted
/// faults in order, everything else is forwarded. Also in front of the S3 emulator (`PUT`s).
final class FaultProxy: Sendable {
    enum Fault: Sendable {
        /// Read the whole request, answer with this status (and headers), close.
        case answer(status: Int, headers: [String] = [])
        /// Read the whole request, answer with this status and body (no PetSpot error body), as
        /// a server that is not PetSpot's does, close.
        case foreign(status: Int, contentType: String, body: String)
        /// Read this many body bytes, then close the connection without answering.
        case dropAfter(bodyBytes: Int)
        /// Read the whole request, then say nothing for this long and close.
        case stall(seconds: Double)
    }

    let port: Int
    private let upstreamPort: Int
    private let listener: Int32
    private let state: Mutex<(faults: [Fault], photoRequests: Int, closed: Bool)>
    private let matching: @Sendable (String) -> Bool

    /// Matching requests seen so far (faulted or forwarded).
    var photoRequests: Int { state.withLock { $0.photoRequests } }

    /// Faults for a request whose first line (`POST /path HTTP/1.1`) is a photo upload.
    static let photoUploads: @Sendable (String) -> Bool = { $0.hasPrefix("POST ") && $0.contains("/photos ") }

    init(upstream: String, faults: [Fault], matching: @escaping @Sendable (String) -> Bool = FaultProxy.photoUploads) throws {
        self.matching = matching
        guard let port = URL(string: upstream)?.port else { throw ProxyError("no port in \(upstream)") }
        upstreamPort = port
        state = Mutex((faults, 0, false))
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else { throw ProxyError("cannot listen: \(String(cString: strerror(errno)))") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        self.port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Adds faults for the next matching requests.
    func inject(_ faults: [Fault]) {
        state.withLock { $0.faults += faults }
    }

    /// Stops accepting; safe to call more than once (the descriptor is closed only the first time).
    func close() {
        let wasClosed = state.withLock { state in
            defer { state.closed = true }
            return state.closed
        }
        guard !wasClosed else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        Glibc.close(listener)
    }

    deinit { close() }

    // MARK: connections

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if state.withLock({ $0.closed }) { return }
                continue
            }
            Thread { [self] in handle(client) }.start()
        }
    }

    private func handle(_ client: Int32) {
        defer { Glibc.close(client) }
        guard let (head, firstBytes) = readHead(client) else { return }
        var body = firstBytes
        let text = String(decoding: head, as: UTF8.self)
        let length = text.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
        let isPhoto = matching(String(text.split(separator: "\r\n").first ?? ""))
        var fault: Fault?
        if isPhoto {
            fault = state.withLock { state in
                state.photoRequests += 1
                return state.faults.isEmpty ? nil : state.faults.removeFirst()
            }
        }
        if case .dropAfter(let bytes) = fault {
            readBody(client, into: &body, upTo: min(length, bytes))
            return
        }
        readBody(client, into: &body, upTo: length)
        switch fault {
        case .answer(let status, let headers):
            let payload = #"{"error":{"code":"injected","message":"fault injected by the test proxy","field":null}}"#
            let response = (["HTTP/1.1 \(status) Injected", "Content-Type: application/json", "Content-Length: \(payload.utf8.count)",
                             "Connection: close"] + headers).joined(separator: "\r\n") + "\r\n\r\n" + payload
            writeAll(client, Array(response.utf8))
        case .foreign(let status, let contentType, let payload):
            let response = ["HTTP/1.1 \(status) Whatever", "Content-Type: \(contentType)", "Content-Length: \(payload.utf8.count)",
                            "Connection: close"].joined(separator: "\r\n") + "\r\n\r\n" + payload
            writeAll(client, Array(response.utf8))
        case .stall(let seconds):
            usleep(UInt32(seconds * 1_000_000))
        case .dropAfter, nil:
            forward(head: head, body: body, to: client)
        }
    }

    /// Sends the request upstream with `Connection: close` and copies the answer back.
    private func forward(head: [UInt8], body: [UInt8], to client: Int32) {
        let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { Glibc.close(upstream) }
        var address = Self.loopback(port: upstreamPort)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return }
        let lines = String(decoding: head, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
            .filter { !$0.lowercased().hasPrefix("connection:") && !$0.isEmpty }
        writeAll(upstream, Array((lines.joined(separator: "\r\n") + "\r\nConnection: close\r\n\r\n").utf8) + body)
        var buffer = [UInt8](repeating: 0, count: 65536)
        var response: [UInt8] = []
        while true {
            let n = read(upstream, &buffer, buffer.count)
            if n <= 0 { break }
            response += buffer[0..<n]
        }
        // Make the client open a new connection for its next request.
        if let end = response.firstRange(of: Array("\r\n\r\n".utf8)),
           !String(decoding: response[..<end.lowerBound], as: UTF8.self).lowercased().contains("connection: close") {
            response.insert(contentsOf: Array("\r\nConnection: close".utf8), at: end.lowerBound)
        }
        writeAll(client, response)
    }

    private func readHead(_ fd: Int32) -> ([UInt8], [UInt8])? {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16384)
        while data.count < 1 << 20 {
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { return nil }
            data += buffer[0..<n]
            if let end = data.firstRange(of: Array("\r\n\r\n".utf8)) {
                return (Array(data[..<end.lowerBound]), Array(data[end.upperBound...]))
            }
        }
        return nil
    }

    private func readBody(_ fd: Int32, into body: inout [UInt8], upTo length: Int) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while body.count < length {
            let n = read(fd, &buffer, min(buffer.count, length - body.count))
            if n <= 0 { return }
            body += buffer[0..<n]
        }
        if body.count > length { body.removeSubrange(length...) }
    }

    private func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        var done = 0
        while done < bytes.count {
            let n = bytes[done...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            done += n
        }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    struct ProxyError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
