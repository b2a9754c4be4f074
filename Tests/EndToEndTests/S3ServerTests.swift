import Foundation
import NIOCore
import PetSpot
import Testing
import TestEngines
@testable import PetSpotServer

/// The built `petspot-server` keeping its photos in an S3-compatible bucket
/// (`scripts/s3-emulator.py`, signatures checked), over real HTTP.
@Suite struct S3ServerTests {
    static func arguments(_ emulator: S3Emulator, prefix: String) -> [String] {
        ["--photo-store", "s3://\(emulator.bucket)/\(prefix)", "--s3-endpoint", emulator.endpoint]
    }

    static func environment(_ emulator: S3Emulator, secret: String? = nil) -> [String: String] {
        ["AWS_ACCESS_KEY_ID": emulator.credentials.accessKeyID,
         "AWS_SECRET_ACCESS_KEY": secret ?? emulator.credentials.secretAccessKey]
    }

    @Test func photosAreStoredInTheBucketAndServedWholeAndInRanges() async throws {
        let emulator = try S3PhotoStoreTests.shared.get()
        let data = try makeTemporaryDirectory("s3-server")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data, arguments: Self.arguments(emulator, prefix: "server"),
                                       environment: Self.environment(emulator))
        #expect(try await HTTP.send(.GET, server.baseURL + "/health").status == 200)
        let created = try await HTTP.create(server.baseURL)
        let first = try await HTTP.upload(try TestImages.cameraPhoto(), base: server.baseURL, to: created)
        #expect(first.status == 201)
        let firstURL = try PetSpotJSON.decode(PhotoUploadResponse.self, from: Data(first.body)).photoURL
        let whole = try await HTTP.send(.GET, firstURL)
        #expect(whole.status == 200)
        #expect(SigV4Signer.hexSHA256(whole.body) + ".jpg" == String(firstURL.split(separator: "/").last ?? ""))
        let head = try await HTTP.send(.HEAD, firstURL)
        #expect(head.headers["Content-Length"].first == String(whole.body.count))
        try #require(whole.body.count > 71_000, "the photo must span more than one 64 KiB chunk")
        let ranged = try await HTTP.send(.GET, firstURL, headers: [("Range", "bytes=1000-70999")])
        #expect(ranged.status == 206)
        #expect(ranged.body == Array(whole.body[1000...70999]))
        // Nothing of the photo is on the local disk.
        #expect(!FileManager.default.fileExists(atPath: data + "/photos"))

        // A second photo replaces the first, whose object goes from the bucket.
        let second = try await HTTP.upload(try TestImages.bytes("jpeg-baseline.jpg"), base: server.baseURL, to: created)
        #expect(second.status == 201)
        #expect(try await HTTP.send(.GET, firstURL).status == 404)
        let store = S3PhotoStore(location: try emulator.location(prefix: "server"), credentials: emulator.credentials,
                                 logger: S3PhotoStoreTests.logger)
        let secondKey = String(try PetSpotJSON.decode(PhotoUploadResponse.self, from: Data(second.body)).photoURL.split(separator: "/").last ?? "")
        #expect(try await store.keys() == [secondKey])
        #expect(server.stop() == 0)
    }

    @Test func aWrongSecretStopsTheStartWithItsReasonAndNeverPrintsTheSecret() throws {
        let emulator = try S3PhotoStoreTests.shared.get()
        let data = try makeTemporaryDirectory("s3-wrong")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let started = Result { try ServerProcess(dataDirectory: data, arguments: Self.arguments(emulator, prefix: "wrong-start"),
                                                 environment: Self.environment(emulator, secret: "wrong-Secret-0042")) }
        guard case .failure(let error) = started else {
            Issue.record("the server started with a wrong secret")
            return
        }
        let log = "\(error)"
        #expect(log.contains("SignatureDoesNotMatch"), "\(log)")
        #expect(log.contains("AWS_SECRET_ACCESS_KEY"))
        #expect(!log.contains("wrong-Secret-0042"))
    }
}
