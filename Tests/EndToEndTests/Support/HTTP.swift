import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PetSpot

/// Small helpers over AsyncHTTPClient for the end-to-end tests.
enum HTTP {
    static let client = HTTPClient(eventLoopGroupProvider: .singleton)

    struct Reply: Sendable {
        var status: Int
        var headers: HTTPHeaders
        var body: [UInt8]
    }

    static func send(_ method: HTTPMethod, _ url: String, headers: [(String, String)] = [],
                     body: HTTPClientRequest.Body? = nil, timeout: TimeAmount = .seconds(60)) async throws -> Reply {
        var request = HTTPClientRequest(url: url)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = body }
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, timeout: timeout)
        } catch ChannelError.ioOnClosedChannel {
            // A pooled keep-alive connection the server closed as idle (15 s) just as it was
            // taken: the request was never written, so sending it again on a new one is safe.
            // (On a loaded machine a test can pause that long between two requests.)
            response = try await client.execute(request, timeout: timeout)
        }
        let bytes = try await response.body.collect(upTo: 64 << 20)
        return Reply(status: Int(response.status.code), headers: response.headers, body: [UInt8](buffer: bytes))
    }

    /// `GET /health` until it answers `status` (the server checks at most once a second and gives
    /// the last answer meanwhile), within `deadline`; the last reply.
    static func health(_ base: String, until status: Int, within deadline: Duration = .seconds(10)) async throws -> Reply {
        let end = ContinuousClock.now + deadline
        while true {
            let reply = try await send(.GET, base + "/health", timeout: .seconds(20))
            if reply.status == status || ContinuousClock.now >= end { return reply }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    static let announcementJSON = #"{"species":"CAT","sex":"FEMALE","last_seen_date":"2025-11-18","location_latitude":-33.8688,"#
        + #""location_longitude":151.2093,"email":"finder@example.org","phone":"0412345678","status":"FOUND","#
        + #""description":"Grey \"Mia\"\nfriendly, $0 reward 🐱"}"#

    /// Creates an announcement over HTTP.
    static func create(_ base: String) async throws -> AnnouncementResponse {
        let reply = try await send(.POST, base + AnnouncementsAPI.collectionPath, headers: [("Content-Type", "application/json")],
                                   body: .bytes(ByteBuffer(string: announcementJSON)))
        guard reply.status == 201 else { throw Unexpected(reply: reply) }
        return try PetSpotJSON.decode(AnnouncementResponse.self, from: Data(reply.body))
    }

    /// A multipart body with the photo part.
    static func multipart(_ data: [UInt8], boundary: String = "e2e-boundary-91c2") -> [UInt8] {
        Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"dog.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
            + data + Array("\r\n--\(boundary)--\r\n".utf8)
    }

    /// Uploads a photo; the reply.
    static func upload(_ data: [UInt8], base: String, to created: AnnouncementResponse) async throws -> Reply {
        try await send(.POST, base + AnnouncementsAPI.photosPath(id: created.id),
                       headers: [("Content-Type", "multipart/form-data; boundary=e2e-boundary-91c2"),
                                 ("Authorization", created.credentials.authorizationHeader)],
                       body: .bytes(ByteBuffer(bytes: multipart(data))))
    }

    struct Unexpected: Error, CustomStringConvertible {
        let reply: Reply
        var description: String { "HTTP \(reply.status): \(String(decoding: reply.body, as: UTF8.self))" }
    }
}

/// The project's own sample files.
enum TestImages {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("TestImages")

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    /// A 12 MP camera photo from the shared corpus (`PETSPOT_CORPUS`): prepared by the server, it is
    /// still larger than one 64 KiB chunk of an answer, which the project's small samples are not.
    static func cameraPhoto() throws -> [UInt8] {
        let corpus = ProcessInfo.processInfo.environment["PETSPOT_CORPUS"] ?? "../shared/corpus"
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: corpus + "/photos/olympus-ep3_4032x3024.jpg")))
    }
}
