import Foundation
import NIOCore
import PetSpot
import PhotoPipeline
import Testing

/// What `GET`/`HEAD /photos/{key}` hand out, against the built `petspot-server`: only the
/// picture (nothing that rode along behind it), the real lengths, and headers that stop a
/// browser from treating a photo as anything else.
@Suite struct PhotoServingTests {
    /// A photo `petspot` prepared, then 4 MB of random bytes appended: the bytes are not kept.
    @Test func bytesAppendedToAPreparedPhotoAreNotStoredOrServed() async throws {
        let data = try makeTemporaryDirectory("photo-trailer")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data)
        let prepared = try PhotoPipeline.prepare(try TestImages.bytes("sample-photo.jpg"), options: PrepareOptions(maxDimension: 512)).data
        var generator = SystemRandomNumberGenerator()
        let payload = (0..<(4 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let created = try await HTTP.create(server.baseURL)
        let upload = try await HTTP.upload(prepared + payload, base: server.baseURL, to: created)
        #expect(upload.status == 201, "\(String(decoding: upload.body, as: UTF8.self))")
        let photoURL = try PetSpotJSON.decode(PhotoUploadResponse.self, from: Data(upload.body)).photoURL

        let served = try await HTTP.send(.GET, photoURL)
        #expect(served.status == 200)
        #expect(served.body.count < prepared.count * 2, "served \(served.body.count) bytes for a \(prepared.count)-byte photo")
        #expect(Array(served.body.suffix(2)) == [0xFF, 0xD9])
        #expect(served.body.count != prepared.count + payload.count)
        let decoded = try PhotoPipeline.decode(served.body)
        let original = try PhotoPipeline.decode(prepared)
        #expect(decoded.width == original.width && decoded.height == original.height)
        // Nothing in the store holds the payload either.
        let stored = Array(try await server.storedPhotos().values)
        #expect(stored == [served.body.count])
        #expect(server.stop() == 0)
    }

    @Test func headAnswersTheLengthGetWouldSendWholeAndRanged() async throws {
        let data = try makeTemporaryDirectory("photo-head")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data)
        let created = try await HTTP.create(server.baseURL)
        let upload = try await HTTP.upload(try TestImages.cameraPhoto(), base: server.baseURL, to: created)
        let photoURL = try PetSpotJSON.decode(PhotoUploadResponse.self, from: Data(upload.body)).photoURL
        let whole = try await HTTP.send(.GET, photoURL)
        #expect(whole.body.count > 70_000)

        let head = try await HTTP.send(.HEAD, photoURL)
        #expect(head.status == 200)
        #expect(head.headers["Content-Length"].first == String(whole.body.count))
        #expect(head.body.isEmpty)

        let rangedHead = try await HTTP.send(.HEAD, photoURL, headers: [("Range", "bytes=100-1099")])
        #expect(rangedHead.status == 206)
        #expect(rangedHead.headers["Content-Length"].first == "1000")
        #expect(rangedHead.headers["Content-Range"].first == "bytes 100-1099/\(whole.body.count)")

        // Ranged GETs stream the same bytes as the whole file holds, across chunk boundaries.
        for (first, last) in [(0, 0), (65_530, 70_000), (whole.body.count - 7, whole.body.count - 1)] {
            let ranged = try await HTTP.send(.GET, photoURL, headers: [("Range", "bytes=\(first)-\(last)")])
            #expect(ranged.status == 206)
            #expect(ranged.body == Array(whole.body[first...last]))
        }
        let suffix = try await HTTP.send(.GET, photoURL, headers: [("Range", "bytes=-10")])
        #expect(suffix.body == Array(whole.body.suffix(10)))
        #expect(server.stop() == 0)
    }

    @Test func everyAnswerSaysNosniffAndPhotosCannotRunAnything() async throws {
        let data = try makeTemporaryDirectory("photo-headers")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data)
        let created = try await HTTP.create(server.baseURL)
        let upload = try await HTTP.upload(try TestImages.bytes("jpeg-baseline.jpg"), base: server.baseURL, to: created)
        let photoURL = try PetSpotJSON.decode(PhotoUploadResponse.self, from: Data(upload.body)).photoURL
        let photo = try await HTTP.send(.GET, photoURL)
        #expect(photo.headers["Content-Security-Policy"].first?.contains("default-src 'none'") == true)
        let answers = [
            photo, upload,
            try await HTTP.send(.GET, server.baseURL + "/health"),
            try await HTTP.send(.GET, server.baseURL + AnnouncementsAPI.collectionPath),
            try await HTTP.send(.GET, server.baseURL + "/photos/" + String(repeating: "0", count: 64) + ".jpg"),
            try await HTTP.send(.GET, server.baseURL + "/no/such/path"),
        ]
        for answer in answers {
            #expect(answer.headers["X-Content-Type-Options"].first == "nosniff", "HTTP \(answer.status) lacks nosniff")
        }
        #expect(server.stop() == 0)
    }
}
