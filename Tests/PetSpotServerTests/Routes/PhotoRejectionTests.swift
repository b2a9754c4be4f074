import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PetSpot
import Testing
@testable import PetSpotServer

/// Every refused upload gets its status and leaves the rows and the photo folder as they were.
@Suite struct PhotoRejectionTests {
    /// Runs `attempt` after creating an announcement with one stored photo, then checks the
    /// status and that nothing changed.
    private func expectRefused(_ status: HTTPResponse.Status, code: APIErrorCode? = nil, announcementsAdded: Int = 0,
                               attempt: @escaping @Sendable (any TestClientProtocol, AnnouncementResponse) async throws -> TestResponse) async throws {
        let server = try await TestServer(maxPhotoBytes: 100_000)
        try await server.test { client in
            let created = try await client.createAnnouncement()
            #expect(try await client.uploadPhoto(try TestImages.bytes("jpeg-baseline.jpg"), to: created).status == .created)
            let filesBefore = try await server.storedFiles()
            let rowBefore = try await server.store.announcement(id: created.id)

            let response = try await attempt(client, created)
            #expect(response.status == status, "\(String(buffer: response.body))")
            if let code { #expect(try response.apiError().code == code) }
            #expect(try await server.storedFiles() == filesBefore)
            #expect(try await server.store.announcement(id: created.id) == rowBefore)
            #expect(try await server.announcementCount() == 1 + announcementsAdded)
        }
    }

    @Test func noCredentialsIs401WithABasicChallenge() async throws {
        try await expectRefused(.unauthorized, code: .unauthorized) { client, created in
            let (body, type) = RequestBodies.multipart(data: try TestImages.bytes("jpeg-baseline.jpg"))
            let response = try await client.execute(uri: AnnouncementsAPI.photosPath(id: created.id), method: .post,
                                                          headers: [.contentType: type], body: body)
            #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Basic") == true)
            return response
        }
    }

    @Test func aWrongPasswordIs401() async throws {
        try await expectRefused(.unauthorized) { client, created in
            let wrong = created.managementPassword == "000000" ? "000001" : "000000"
            return try await client.uploadPhoto(try TestImages.bytes("exif-orientation-3.jpg"), to: created, password: wrong)
        }
    }

    @Test func anotherAnnouncementsIdInTheCredentialsIs401() async throws {
        try await expectRefused(.unauthorized, announcementsAdded: 1) { client, created in
            let other = try await client.createAnnouncement()
            let (body, type) = RequestBodies.multipart(data: try TestImages.bytes("exif-orientation-3.jpg"))
            return try await client.execute(
                uri: AnnouncementsAPI.photosPath(id: created.id), method: .post,
                headers: [.contentType: type, .authorization: RequestBodies.basic(other.id.rawValue, other.managementPassword)],
                body: body)
        }
    }

    @Test func anUnknownOrReCasedIdIs404() async throws {
        try await expectRefused(.notFound, code: .notFound) { client, created in
            let upper = AnnouncementID(rawValue: created.id.rawValue.uppercased())!
            let (body, type) = RequestBodies.multipart(data: try TestImages.bytes("exif-orientation-3.jpg"))
            return try await client.execute(
                uri: AnnouncementsAPI.photosPath(id: upper), method: .post,
                headers: [.contentType: type, .authorization: RequestBodies.basic(upper.rawValue, created.managementPassword)],
                body: body)
        }
    }

    @Test func aTextFileNamedJPGIs415() async throws {
        try await expectRefused(.unsupportedMediaType, code: .unsupportedMediaType) { client, created in
            try await client.uploadPhoto(Array("just some words, not a photo\n".utf8), to: created, filename: "dog.jpg")
        }
    }

    @Test func aGIFIs415WhateverItsContentTypeSays() async throws {
        try await expectRefused(.unsupportedMediaType) { client, created in
            let gif: [UInt8] = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0x21, 0xF9, 4, 1, 0, 0, 0, 0,
                                                         0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 1, 0, 0x3B]
            return try await client.uploadPhoto(gif, to: created, filename: "dog.jpg")
        }
    }

    @Test func aDamagedJPEGIs422() async throws {
        try await expectRefused(.unprocessableContent, code: .unprocessablePhoto) { client, created in
            try await client.uploadPhoto(try TestImages.bytes("bad-truncated.jpg"), to: created)
        }
    }

    @Test func aDeclaredOversizedBodyIs413BeforeItIsRead() async throws {
        try await expectRefused(.contentTooLarge, code: .payloadTooLarge) { client, created in
            let (body, type) = RequestBodies.multipart(data: [UInt8](repeating: 0xFF, count: 200_000))
            return try await client.postPhotoBody(body, contentType: type, to: created)
        }
    }

    @Test func aMissingPhotoPartIs400NamingIt() async throws {
        try await expectRefused(.badRequest) { client, created in
            let (body, type) = RequestBodies.multipart(partName: "picture", data: try TestImages.bytes("exif-orientation-3.jpg"))
            let response = try await client.postPhotoBody(body, contentType: type, to: created)
            #expect(try response.apiError().field == "photo")
            return response
        }
    }

    @Test func aBodyCutShortIs400() async throws {
        try await expectRefused(.badRequest) { client, created in
            let (body, type) = RequestBodies.multipart(data: try TestImages.bytes("exif-orientation-3.jpg"), closed: false)
            return try await client.postPhotoBody(body, contentType: type, to: created)
        }
    }

    @Test func aNonMultipartBodyIs400() async throws {
        try await expectRefused(.badRequest) { client, created in
            try await client.postPhotoBody(ByteBuffer(bytes: try TestImages.bytes("exif-orientation-3.jpg")), contentType: "image/jpeg", to: created)
        }
    }

    @Test func tenWrongPasswordsLockTheIdEvenForTheRightOne() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let created = try await client.createAnnouncement()
            let wrong = created.managementPassword == "000000" ? "000001" : "000000"
            for _ in 0..<10 {
                #expect(try await client.uploadPhoto(try TestImages.bytes("jpeg-baseline.jpg"), to: created, password: wrong).status == .unauthorized)
            }
            let locked = try await client.uploadPhoto(try TestImages.bytes("jpeg-baseline.jpg"), to: created)
            #expect(locked.status == .tooManyRequests)
            let retryAfter = try #require(locked.headers[.retryAfter].flatMap { Int($0) })
            #expect((1...900).contains(retryAfter))
            #expect(try await server.storedFiles().isEmpty)
            // Another announcement is not affected.
            let other = try await client.createAnnouncement()
            #expect(try await client.uploadPhoto(try TestImages.bytes("jpeg-baseline.jpg"), to: other).status == .created)
        }
    }

    @Test func theLockLiftsOnceTheFailuresLeaveTheWindow() async throws {
        let clock = TestClock()
        let server = try await TestServer(now: { clock.now })
        try await server.test { client in
            let created = try await client.createAnnouncement()
            let wrong = created.managementPassword == "000000" ? "000001" : "000000"
            for _ in 0..<10 {
                #expect(try await client.uploadPhoto(try TestImages.bytes("jpeg-baseline.jpg"), to: created, password: wrong).status == .unauthorized)
            }
            #expect(try await client.uploadPhoto(try TestImages.bytes("jpeg-baseline.jpg"), to: created).status == .tooManyRequests)
            clock.advance(by: 14 * 60)
            #expect(try await client.uploadPhoto(try TestImages.bytes("jpeg-baseline.jpg"), to: created).status == .tooManyRequests)
            clock.advance(by: 2 * 60)
            #expect(try await client.uploadPhoto(try TestImages.bytes("jpeg-baseline.jpg"), to: created).status == .created)
        }
    }
}

/// Inputs the `multipart` fuzzer found, sent through the real route.
@Suite struct MultipartFuzzRegressionTests {
    /// multipart-kit 4.7.1 traps on a part header name byte ≥ 0x80 (a 128-entry table indexed by
    /// the byte): one such upload used to crash the server. It is now a 400 and the server goes on.
    @Test func aHeaderNameByteOver127IsA400NotACrash() async throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/fuzz/multipart-header-name-byte-over-127.txt")
        let input = try [UInt8](Data(contentsOf: fixture))
        let newline = try #require(input.firstIndex(of: 0x0A))
        let contentType = String(decoding: input[..<newline], as: UTF8.self)
        let body = ByteBuffer(bytes: input[(newline + 1)...])
        let server = try await TestServer()
        try await server.test { client in
            let created = try await client.createAnnouncement()
            let response = try await client.postPhotoBody(body, contentType: contentType, to: created)
            #expect(response.status == .badRequest)
            #expect(try response.apiError().message.contains("ASCII"))
            // Still serving, and a good upload still works.
            #expect(try await client.uploadPhoto(try TestImages.bytes("jpeg-baseline.jpg"), to: created).status == .created)
        }
    }

    @Test func theGuardChecksNamesOnlyAndFindsBoundariesAcrossChunks() {
        func accepts(_ text: [UInt8], chunk: Int) -> Bool {
            var guardrail = PartHeaderGuard(boundary: "b0und")
            return stride(from: 0, to: text.count, by: chunk).allSatisfy { start in
                Array(text[start..<min(start + chunk, text.count)]).withUnsafeBytes { guardrail.accept($0) } == nil
            }
        }
        let utf8Filename = Array("--b0und\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"żółw.jpg\"\r\n\r\n".utf8)
            + [0xFF, 0xD8, 0x80, 0x0A, 0x99] + Array("\r\n--b0und--\r\n".utf8)
        let badName = Array("--b0und\r\nContent-Disposition: form-data\r\nX".utf8) + [0xC3, 0xA9] + Array(": 1\r\n\r\nbody\r\n--b0und--".utf8)
        let badAfterSecondPart = Array("--b0und\r\nA: b\r\n\r\n\u{80}x\r\n--b--b0und\r\n".utf8) + [0x80] + Array(": v\r\n\r\n".utf8)
        for chunk in [1, 2, 3, 7, 1000] {
            #expect(accepts(utf8Filename, chunk: chunk), "chunk \(chunk)")
            #expect(!accepts(badName, chunk: chunk), "chunk \(chunk)")
            #expect(!accepts(badAfterSecondPart, chunk: chunk), "chunk \(chunk)")
        }
    }
}
