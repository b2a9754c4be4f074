import Foundation
import PetSpot
import Testing

/// A photo too large for the server: the 413 names the photo limit it was started with.
@Suite struct PhotoLimitAnswerTests {
    @Test func the413NamesThePhotoLimitInTheMessageAndAsANumber() async throws {
        let data = try makeTemporaryDirectory("photo-limit")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data, arguments: ["--max-photo-bytes", "2000"])
        let created = try await HTTP.create(server.baseURL)
        // Declared too large (Content-Length), and a photo part too large inside a body that fits.
        let bodies: [[UInt8]] = [try TestImages.bytes("sample-photo.jpg"), [UInt8](repeating: 0x41, count: 2500)]
        for photo in bodies {
            let reply = try await HTTP.upload(photo, base: server.baseURL, to: created)
            #expect(reply.status == 413)
            let error = try PetSpotJSON.decode(APIErrorBody.self, from: Data(reply.body)).error
            #expect(error.maxPhotoBytes == 2000)
            #expect(error.message.contains("at most 2000 bytes"), "\(error.message)")
            #expect(!error.message.contains("67536") && !error.message.contains("\(2000 + 65536)"))
        }
        #expect(server.stop() == 0)
    }
}
