#if canImport(Glibc)
import Glibc
#endif
import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import PetSpot
import PhotoPipeline
import Testing

/// The built `petspot-server` over real HTTP on 127.0.0.1: restarts, SIGKILL mid-upload,
/// chunked bodies past the limit, and what its log holds.
@Suite(.serialized) struct ServerProcessTests {
    @Test func everythingIsFoundAgainAfterARestart() async throws {
        let data = try makeTemporaryDirectory("restart")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let arguments = ["--public-url", "https://pets.example.org"]
        var server = try ServerProcess(dataDirectory: data, arguments: arguments)
        let created = try await HTTP.create(server.baseURL)
        let upload = try await HTTP.upload(try TestImages.bytes("exif-orientation-6.jpg"), base: server.baseURL, to: created)
        #expect(upload.status == 201)
        let photoURL = try PetSpotJSON.decode(PhotoUploadResponse.self, from: Data(upload.body)).photoURL
        #expect(server.stop(signal: SIGTERM) == 0)

        #expect(photoURL.hasPrefix("https://pets.example.org/photos/"))
        let path = String(photoURL.dropFirst("https://pets.example.org".count))
        server = try ServerProcess(dataDirectory: data, arguments: arguments)
        let details = try await HTTP.send(.GET, server.baseURL + AnnouncementsAPI.announcementPath(id: created.id))
        #expect(details.status == 200)
        let pet = try PetSpotJSON.decode(PetDetails.self, from: Data(details.body))
        #expect(pet.status == .found && pet.photoUrl == photoURL)
        #expect(pet.description == "Grey \"Mia\"\nfriendly, $0 reward 🐱")
        let photo = try await HTTP.send(.GET, server.baseURL + path)
        #expect(photo.status == 200)
        #expect(path.hasSuffix(SHA256.hash(data: photo.body).map { String(format: "%02x", $0) }.joined() + ".jpg"))
        #expect(try PhotoPipeline.inspect(photo.body).orientation == .up)
        #expect(server.stop() == 0)
    }

    @Test func aKillDuringUploadsNeverLeavesAHalfWrittenPhoto() async throws {
        let data = try makeTemporaryDirectory("sigkill")
        defer { try? FileManager.default.removeItem(atPath: data) }
        var server = try ServerProcess(dataDirectory: data)
        let photo = try TestImages.bytes("sample-photo.jpg")
        var announcements: [AnnouncementResponse] = []
        for _ in 0..<12 { announcements.append(try await HTTP.create(server.baseURL)) }

        let base = server.baseURL
        let targets = announcements
        let uploads = Task { @Sendable in
            await withTaskGroup(of: Void.self) { group in
                for created in targets {
                    group.addTask { _ = try? await HTTP.upload(photo, base: base, to: created) }
                }
            }
        }
        // Let some uploads finish and others be mid-flight, then kill without warning.
        try await Task.sleep(for: .milliseconds(400))
        server.stop(signal: SIGKILL)
        await uploads.value

        server = try ServerProcess(dataDirectory: data)
        #expect(try await HTTP.send(.GET, server.baseURL + "/health").status == 200)
        var stored = 0
        for created in announcements {
            let details = try await HTTP.send(.GET, server.baseURL + AnnouncementsAPI.announcementPath(id: created.id))
            #expect(details.status == 200)
            guard let url = try PetSpotJSON.decode(PetDetails.self, from: Data(details.body)).photoUrl else { continue }
            let path = String(url.drop { $0 != "/" }.dropFirst(2).drop { $0 != "/" })
            let served = try await HTTP.send(.GET, server.baseURL + path)
            #expect(served.status == 200)
            // Whole: the bytes hash to their name and decode.
            #expect(path.hasSuffix(SHA256.hash(data: served.body).map { String(format: "%02x", $0) }.joined() + ".jpg"))
            #expect((try? PhotoPipeline.decode(served.body)) != nil)
            stored += 1
        }
        // Nothing but whole photos is left in the store (the disk store's partial files end in .tmp).
        let files = Array(try await server.storedPhotos().keys)
        #expect(files.allSatisfy { !$0.contains(".tmp") })
        // Uploads the kill cut short may leave files in tmp/: the restart keeps them until they are
        // older than the sweep's grace (DataDirectoryTests), and none is ever served. In a bucket a
        // photo written whole just before the kill, whose row was not, waits for the same sweep:
        // whole, as every object there is.
        if server.backend == .embedded { #expect(files.count <= stored) }
        for file in files where !file.contains(".tmp") {
            let key = String(file.split(separator: "/").last ?? "")
            let served = try await HTTP.send(.GET, server.baseURL + "/photos/" + key)
            #expect(served.status == 200 && key.hasPrefix(SHA256.hash(data: served.body).map { String(format: "%02x", $0) }.joined()),
                    "\(key) is not a whole photo")
        }
        #expect(server.stop() == 0)
    }

    @Test func aChunkedBodyPastTheLimitIsCutOffWith413() async throws {
        let data = try makeTemporaryDirectory("chunked")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data, arguments: ["--max-photo-bytes", "100000"])
        let created = try await HTTP.create(server.baseURL)
        // A stream of unknown length: AsyncHTTPClient sends it chunked.
        let chunk = ByteBuffer(bytes: HTTP.multipart([UInt8](repeating: 0x41, count: 32 * 1024)))
        let stream = AsyncStream<ByteBuffer> { continuation in
            for _ in 0..<64 { continuation.yield(chunk) }
            continuation.finish()
        }
        let reply = try? await HTTP.send(.POST, server.baseURL + AnnouncementsAPI.photosPath(id: created.id),
                                         headers: [("Content-Type", "multipart/form-data; boundary=e2e-boundary-91c2"),
                                                   ("Authorization", created.credentials.authorizationHeader)],
                                         body: .stream(stream, length: .unknown))
        // The server answers 413 and closes; a client still sending may see the close instead.
        if let reply { #expect(reply.status == 413) }
        #expect(try await HTTP.send(.GET, server.baseURL + "/health").status == 200)
        let details = try await HTTP.send(.GET, server.baseURL + AnnouncementsAPI.announcementPath(id: created.id))
        #expect(try PetSpotJSON.decode(PetDetails.self, from: Data(details.body)).photoUrl == nil)
        #expect(try await server.storedPhotos().isEmpty)
        // Uploads the kill cut short may leave files in tmp/: the restart keeps them until they are
        // older than the sweep's grace (DataDirectoryTests), and none is ever served.
    }

    @Test func sigtermLetsAnUploadInFlightFinish() async throws {
        let data = try makeTemporaryDirectory("sigterm")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data)
        let created = try await HTTP.create(server.baseURL)
        let body = HTTP.multipart(try TestImages.bytes("sample-photo.jpg"))
        let (firstChunkSent, signal) = AsyncStream<Void>.makeStream()
        // The body trickles in over about a second; SIGTERM arrives after its first chunk.
        let stream = AsyncStream<ByteBuffer> { continuation in
            Task {
                for (index, start) in stride(from: 0, to: body.count, by: max(1, body.count / 10)).enumerated() {
                    continuation.yield(ByteBuffer(bytes: body[start..<min(body.count, start + max(1, body.count / 10))]))
                    if index == 0 { signal.yield() }
                    try? await Task.sleep(for: .milliseconds(100))
                }
                continuation.finish()
            }
        }
        async let reply = HTTP.send(.POST, server.baseURL + AnnouncementsAPI.photosPath(id: created.id),
                                    headers: [("Content-Type", "multipart/form-data; boundary=e2e-boundary-91c2"),
                                              ("Authorization", created.credentials.authorizationHeader)],
                                    body: .stream(stream, length: .known(Int64(body.count))))
        for await _ in firstChunkSent { break }
        try await Task.sleep(for: .milliseconds(50))
        server.process.send(SIGTERM)
        #expect(try await reply.status == 201)
        #expect(server.stop() == 0)
        #expect(!server.log.contains("shutdown grace were cut"), "\(server.log)")
        // The photo it stored is there after the restart.
        let again = try ServerProcess(dataDirectory: data)
        let details = try await HTTP.send(.GET, again.baseURL + AnnouncementsAPI.announcementPath(id: created.id))
        #expect(try PetSpotJSON.decode(PetDetails.self, from: Data(details.body)).photoUrl != nil)
    }

    @Test func theLogHasOneLinePerRequestAndNoSecrets() async throws {
        let data = try makeTemporaryDirectory("log")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data, arguments: ["--log-level", "info"])
        let created = try await HTTP.create(server.baseURL)
        _ = try await HTTP.upload(try TestImages.bytes("jpeg-baseline.jpg"), base: server.baseURL, to: created)
        _ = try await HTTP.send(.GET, server.baseURL + "/health?token=secret-query")
        server.stop()
        let log = server.log
        let requestLines = log.split(separator: "\n").filter { $0.contains(" POST /api/v1/announcements") || $0.contains(" GET /health") }
        #expect(requestLines.count == 3, "\(log)")
        #expect(requestLines.allSatisfy { $0.contains("hb.request.id") || $0.contains("request.id") })
        #expect(log.contains(" 201 "))
        #expect(!log.contains(created.managementPassword))
        #expect(!log.contains(String(created.credentials.authorizationHeader.dropFirst(6))))
        #expect(!log.contains("secret-query"))
        #expect(!log.contains("owner@") && !log.contains("finder@example.org"))
    }
}
