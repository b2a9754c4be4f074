import AsyncHTTPClient
import Foundation
import NIOCore
import PetSpot
@testable import PhotoPipeline
import Testing

/// The open endpoints under abuse, against the built `petspot-server`: cross-site creates,
/// per-address rates, upload admission and the decode memory budget.
@Suite struct AbuseLimitTests {
    @Test(arguments: [nil, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"])
    func aCreateThatIsNotJSONIs415AndCreatesNothing(contentType: String?) async throws {
        let data = try makeTemporaryDirectory("csrf")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data)
        // What a form on another site can make a browser send without asking.
        let reply = try await HTTP.send(.POST, server.baseURL + AnnouncementsAPI.collectionPath,
                                        headers: contentType.map { [("Content-Type", $0)] } ?? [],
                                        body: .bytes(ByteBuffer(string: HTTP.announcementJSON)))
        #expect(reply.status == 415)
        #expect(String(decoding: reply.body, as: UTF8.self).contains("application/json"))
        let list = try await HTTP.send(.GET, server.baseURL + AnnouncementsAPI.collectionPath)
        #expect(String(decoding: list.body, as: UTF8.self).hasPrefix(#"{"data":[]"#), "\(String(decoding: list.body, as: UTF8.self))")
        #expect(server.stop() == 0)
    }

    @Test func eachAddressHasItsOwnRatesForCreatesUploadsAndListPages() async throws {
        let data = try makeTemporaryDirectory("rates")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data, arguments: [
            "--trusted-proxy", "127.0.0.1", "--create-rate", "3/hour", "--upload-rate", "2/hour", "--list-rate", "4/hour"])
        func create(from address: String) async throws -> HTTP.Reply {
            try await HTTP.send(.POST, server.baseURL + AnnouncementsAPI.collectionPath,
                                headers: [("Content-Type", "application/json"), ("X-Forwarded-For", address)],
                                body: .bytes(ByteBuffer(string: HTTP.announcementJSON)))
        }
        var statuses: [Int] = []
        let firstCreate = ContinuousClock.now
        for _ in 0..<4 { statuses.append(try await create(from: "198.51.100.1").status) }
        #expect(statuses == [201, 201, 201, 429])
        let refused = try await create(from: "198.51.100.1")
        // One create comes back every 20 minutes, less what has passed since the first (on a
        // loaded machine that can be minutes).
        let passed = Int((ContinuousClock.now - firstCreate).components.seconds) + 1
        let retryAfter = try #require(refused.headers["Retry-After"].first.flatMap(Int.init))
        #expect((1200 - passed - 1)...1200 ~= retryAfter, "Retry-After \(retryAfter) after \(passed) s")
        #expect(String(decoding: refused.body, as: UTF8.self).contains(#""code":"rate_limited""#))
        // Another address is not held by the first one's rate.
        #expect(try await create(from: "198.51.100.2").status == 201)

        let created = try PetSpotJSON.decode(AnnouncementResponse.self, from: Data(try await create(from: "198.51.100.3").body))
        let photo = HTTP.multipart(try TestImages.bytes("jpeg-baseline.jpg"))
        func upload(from address: String, authorized: Bool = true) async throws -> Int {
            var headers = [("Content-Type", "multipart/form-data; boundary=e2e-boundary-91c2"), ("X-Forwarded-For", address)]
            if authorized { headers.append(("Authorization", created.credentials.authorizationHeader)) }
            return try await HTTP.send(.POST, server.baseURL + AnnouncementsAPI.photosPath(id: created.id), headers: headers,
                                       body: .bytes(ByteBuffer(bytes: photo))).status
        }
        var uploads: [Int] = []
        for _ in 0..<3 { uploads.append(try await upload(from: "198.51.100.3")) }
        #expect(uploads == [201, 201, 429])
        // Without credentials it is still 401, not 429.
        #expect(try await upload(from: "198.51.100.3", authorized: false) == 401)

        var pages: [Int] = []
        for _ in 0..<3 {
            pages.append(try await HTTP.send(.GET, server.baseURL + AnnouncementsAPI.collectionPath, headers: [("X-Forwarded-For", "198.51.100.4")]).status)
        }
        #expect(pages == [200, 200, 429])
        #expect(server.stop() == 0)
    }

    @Test func uploadsPastTheAdmissionLimitAre503AtOnce() async throws {
        let data = try makeTemporaryDirectory("admission")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data, arguments: ["--max-uploads-in-flight", "2", "--min-body-rate", "0"])
        let created = try await HTTP.create(server.baseURL)
        let port = Int(server.baseURL.split(separator: ":").last!)!
        let body = HTTP.multipart(try TestImages.bytes("jpeg-baseline.jpg"), boundary: "b")
        // Two uploads in flight, their bodies held back.
        let held = try (0..<2).map { _ in
            let connection = try RawConnection(port: port)
            try connection.send(RawConnection.uploadHead(to: created, contentLength: body.count) + Array(body.prefix(50)))
            return connection
        }
        // Both are admitted once their files are open in tmp/ (after the password check, before
        // the body), however loaded the machine.
        try await ServerProcess.waitForUploadFiles(2, in: data)
        #expect(try FileManager.default.contentsOfDirectory(atPath: data + "/tmp").count == 2)
        let start = ContinuousClock.now
        let third = try await HTTP.upload(try TestImages.bytes("jpeg-baseline.jpg"), base: server.baseURL, to: created)
        #expect(third.status == 503)
        // At once: not after the two uploads in flight (which never finish until we let them).
        #expect(ContinuousClock.now - start < .seconds(10))
        #expect(third.headers["Retry-After"].first != nil)
        #expect(String(decoding: third.body, as: UTF8.self).contains(#""code":"unavailable""#))
        for connection in held {
            try connection.send(Array(body.dropFirst(50)))
            #expect(try connection.receiveHead().hasPrefix("HTTP/1.1 201"))
        }
        #expect(try await HTTP.upload(try TestImages.bytes("jpeg-baseline.jpg"), base: server.baseURL, to: created).status == 201)
        #expect(server.stop() == 0)
    }

    /// A PNG of a few hundred KB that declares 7000 × 7000 (rows of zeros compress to nothing).
    static func pngDeclaring(width: Int, height: Int) -> [UInt8] {
        func chunk(_ kind: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(kind.utf8) + data
            return UInt32(data.count).bigEndianBytes + body + Zlib.crc32(body).bigEndianBytes
        }
        let rows = [UInt8](repeating: 0, count: (width * 3 + 1) * height)
        let header = UInt32(width).bigEndianBytes + UInt32(height).bigEndianBytes + [8, 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
            + chunk("IDAT", Zlib.deflate(rows)) + chunk("IEND", [])
    }

    @Test func concurrentHugeDeclaredDecodesStayWithinThePixelBudget() async throws {
        let data = try makeTemporaryDirectory("pixel-budget")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data, arguments: ["--decode-pixel-budget", "50000000"])
        let png = Self.pngDeclaring(width: 7000, height: 7000)
        #expect(png.count < 1_000_000)
        let announcements = try await (0..<4).asyncMap { _ in try await HTTP.create(server.baseURL) }
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for created in announcements {
                group.addTask { try await HTTP.upload(png, base: server.baseURL, to: created).status }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == [201, 201, 201, 201])
        // One 49-megapixel decode at a time: about 200 MB, never two or four of them.
        let peak = server.peakMemoryMB()
        #expect(peak < 320, "peak RSS \(peak) MB")
        #expect(server.stop() == 0)
    }
}

extension Sequence {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}

extension UInt32 {
    var bigEndianBytes: [UInt8] { [UInt8(self >> 24), UInt8(self >> 16 & 0xFF), UInt8(self >> 8 & 0xFF), UInt8(self & 0xFF)] }
}
