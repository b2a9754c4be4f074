import Foundation
import Logging
import NIOCore
import Testing
import TestEngines
@testable import PetSpotServer

/// The S3 photo store against a real S3-compatible server that checks signatures
/// (`scripts/s3-emulator.py`: moto_server with a user, key and policy made through its IAM API),
/// one for the suite, each test under its own prefix.
@Suite struct S3PhotoStoreTests {
    static let logger = Logger(label: "s3-tests")
    static let shared = Result { try S3Emulator() }

    @Test func photosGoInComeOutWholeAndInRangesAndGo() async throws {
        let emulator = try Self.shared.get()
        let store = S3PhotoStore(location: try emulator.location(prefix: "round-trip"), credentials: emulator.credentials, logger: Self.logger)
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        let key = try await store.store(bytes, fileExtension: "jpg")
        #expect(key == SigV4Signer.hexSHA256(bytes) + ".jpg")
        #expect(try await store.keys() == [key])
        #expect(try await store.data(for: key) == bytes)
        // Stored again: the same key, still one object.
        #expect(try await store.store(bytes, fileExtension: "jpg") == key)
        #expect(try await store.keys().count == 1)

        let reader = try #require(try await store.open(key))
        #expect(reader.size == bytes.count)
        for range in [0..<bytes.count, 65_530..<200_001, (bytes.count - 7)..<bytes.count] {
            var received: [UInt8] = []
            try await reader.read(range, chunkSize: 65_536) { received += Array(buffer: $0) }
            #expect(received == Array(bytes[range]))
        }
        try await store.remove(key)
        #expect(try await store.data(for: key) == nil)
        #expect(try await store.open(key) == nil)
        try await store.remove(key)  // gone already: not an error
    }

    @Test func listingFollowsContinuationTokensUnderThePrefixOnly() async throws {
        let emulator = try Self.shared.get()
        let photos = S3Client(location: try emulator.location(prefix: "list-a/p"), credentials: emulator.credentials, logger: Self.logger)
        let others = S3Client(location: try emulator.location(prefix: "list-ab"), credentials: emulator.credentials, logger: Self.logger)
        for index in 0..<5 { try await photos.put("k\(index)", body: [UInt8(index)], contentType: "image/jpeg") }
        try await others.put("stranger", body: [9], contentType: "image/jpeg")
        var keys: [String] = []
        var token: String?
        var pages = 0
        repeat {
            let page = try await photos.list(continuation: token, maxKeys: 2)
            keys += page.objects.map(\.key)
            token = page.next
            pages += 1
        } while token != nil
        #expect(keys.sorted() == ["k0", "k1", "k2", "k3", "k4"])
        #expect(pages == 3)
    }

    @Test func aWrongSecretIsRefusedWithAClearErrorThatHidesIt() async throws {
        let emulator = try Self.shared.get()
        let wrong = AWSCredentials(accessKeyID: emulator.credentials.accessKeyID, secretAccessKey: "not-the-secret-Zq81")
        let store = S3PhotoStore(location: try emulator.location(prefix: "wrong"), credentials: wrong, logger: Self.logger)
        let error = await #expect(throws: StorageError.self) { _ = try await store.store([1, 2, 3], fileExtension: "jpg") }
        let text = error.map { "\($0)" } ?? ""
        #expect(text.contains("SignatureDoesNotMatch"), "\(text)")
        #expect(text.contains("AWS_SECRET_ACCESS_KEY"))
        #expect(!text.contains("not-the-secret-Zq81"))
        // The right secret works on the same server: the signature was checked, not ignored.
        let right = S3PhotoStore(location: try emulator.location(prefix: "wrong"), credentials: emulator.credentials, logger: Self.logger)
        #expect(try await right.store([1, 2, 3], fileExtension: "jpg").hasSuffix(".jpg"))
    }

    @Test func theSweepTakesOnlyUnreferencedPhotosOlderThanTheGrace() async throws {
        let emulator = try Self.shared.get()
        let store = S3PhotoStore(location: try emulator.location(prefix: "sweep"), credentials: emulator.credentials, logger: Self.logger)
        let kept = try await store.store([1], fileExtension: "jpg")
        let orphan = try await store.store([2], fileExtension: "jpg")
        // Just stored (another replica may be about to record it): a one-hour grace keeps it.
        let removeUnlessKept: (String) async throws -> Bool = { key in
            guard key != kept else { return false }
            try await store.remove(key)
            return true
        }
        #expect(try await store.sweep(olderThan: Date().addingTimeInterval(-3600), removeIfUnreferenced: removeUnlessKept) == 0)
        #expect(try await store.keys() == [kept, orphan])
        // Past the grace: only the unreferenced one goes.
        #expect(try await store.sweep(olderThan: Date().addingTimeInterval(60), removeIfUnreferenced: removeUnlessKept) == 1)
        #expect(try await store.keys() == [kept])
    }
}
