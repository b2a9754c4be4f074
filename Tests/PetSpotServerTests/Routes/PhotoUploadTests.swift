import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PetSpot
import PhotoPipeline
import Testing
@testable import PetSpotServer

@Suite struct PhotoUploadTests {
    @Test func anIPhoneStyleHEICIsStoredAsAStrippedJPEG() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let created = try await client.createAnnouncement()
            // heif-enc's HEIC of the sample photo: EXIF Orientation 6 and GPS, no irot.
            let source = try TestImages.bytes("sample-photo.heic")
            let response = try await client.uploadPhoto(source, to: created, filename: "IMG_0001.HEIC")
            #expect(response.status == .created, "\(String(buffer: response.body))")
            let url = try PetSpotJSON.decode(PhotoUploadResponse.self, from: Data(buffer: response.body)).photoURL
            #expect(url.hasSuffix(".jpg"))
            let served = try await client.execute(uri: String(url.dropFirst(TestServer.publicURL.count)), method: .get,
                                                  headers: [:], body: nil)
            let info = try PhotoPipeline.inspect([UInt8](buffer: served.body))
            #expect(info.type == .jpeg && info.orientationTag == nil)
            // The EXIF tag of a HEIF file is never applied: landscape as stored.
            #expect(info.uprightSize == PixelSize(width: 1600, height: 1200))
            #expect(info.gps == nil && info.capturedAt == nil)
        }
    }

    @Test func storesAnUprightStrippedJPEGAndServesIt() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let created = try await client.createAnnouncement()
            // Orientation 6 (stored landscape, shown portrait) with GPS in a neighbouring fixture.
            let source = try TestImages.bytes("exif-orientation-6.jpg")
            let sourceInfo = try PhotoPipeline.inspect(source)
            let response = try await client.uploadPhoto(source, to: created)
            #expect(response.status == .created, "\(String(buffer: response.body))")
            let url = try PetSpotJSON.decode(PhotoUploadResponse.self, from: Data(buffer: response.body)).photoURL
            #expect(url.hasPrefix(TestServer.publicURL + "/photos/") && url.hasSuffix(".jpg"))

            let path = String(url.dropFirst(TestServer.publicURL.count))
            let served = try await client.execute(uri: path, method: .get, headers: [:], body: nil)
            #expect(served.status == .ok)
            #expect(served.headers[.contentType] == "image/jpeg")
            #expect(served.headers[.cacheControl] == "public, max-age=31536000, immutable")
            let bytes = [UInt8](buffer: served.body)
            let digest = SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
            #expect(served.headers[.eTag] == "\"\(digest)\"")
            #expect(path.hasSuffix("/\(digest).jpg"))

            let info = try PhotoPipeline.inspect(bytes)
            #expect(info.type == .jpeg)
            #expect(info.orientation == .up)
            #expect(info.uprightSize == sourceInfo.uprightSize)
            #expect(info.gps == nil && info.capturedAt == nil)

            let details = try await client.execute(uri: AnnouncementsAPI.announcementPath(id: created.id), method: .get)
            #expect(try PetSpotJSON.decode(PetDetails.self, from: Data(buffer: details.body)).photoUrl == url)
        }
    }

    @Test func gpsIsStrippedAndBigPhotosAreScaledTo2048() async throws {
        let server = try await TestServer(maxPhotoBytes: 20_000_000)
        try await server.test { client in
            let created = try await client.createAnnouncement()
            let source = try TestImages.bytes("jpeg-gps-date.jpg")
            #expect(try PhotoPipeline.inspect(source).gps != nil)
            let response = try await client.uploadPhoto(source, to: created)
            #expect(response.status == .created)
            let key = try #require(try await server.storedFiles().first { $0.hasPrefix("photos/") }?.split(separator: "/").last)
            let stored = try #require(try await server.services.photos.data(for: String(key)))
            #expect(try PhotoPipeline.inspect(stored).gps == nil)
            #expect(try PhotoPipeline.inspect(stored).uprightSize.longEdge <= 2048)
        }
    }

    @Test func conditionalAndRangeRequests() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let created = try await client.createAnnouncement()
            let response = try await client.uploadPhoto(try TestImages.bytes("jpeg-baseline.jpg"), to: created)
            let url = try PetSpotJSON.decode(PhotoUploadResponse.self, from: Data(buffer: response.body)).photoURL
            let path = String(url.dropFirst(TestServer.publicURL.count))
            let full = try await client.execute(uri: path, method: .get)
            let etag = try #require(full.headers[.eTag])
            let bytes = [UInt8](buffer: full.body)

            let notModified = try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: etag])
            #expect(notModified.status == .notModified)
            #expect(notModified.body.readableBytes == 0)

            let partial = try await client.execute(uri: path, method: .get, headers: [.range: "bytes=10-19"])
            #expect(partial.status == .partialContent)
            #expect([UInt8](buffer: partial.body) == Array(bytes[10...19]))
            #expect(partial.headers[.contentRange] == "bytes 10-19/\(bytes.count)")

            let suffix = try await client.execute(uri: path, method: .get, headers: [.range: "bytes=-5"])
            #expect([UInt8](buffer: suffix.body) == Array(bytes.suffix(5)))

            let outside = try await client.execute(uri: path, method: .get, headers: [.range: "bytes=\(bytes.count)-"])
            #expect(outside.status == .rangeNotSatisfiable)
            #expect(outside.headers[.contentRange] == "bytes */\(bytes.count)")

            let missing = try await client.execute(uri: "/photos/" + String(repeating: "0", count: 64) + ".jpg", method: .get)
            #expect(missing.status == .notFound)
            let traversal = try await client.execute(uri: "/photos/..%2F..%2Fpetspot-server.sqlite", method: .get)
            #expect(traversal.status == .notFound)
        }
    }

    @Test func aSecondUploadReplacesTheFirstAndRemovesItsFile() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let created = try await client.createAnnouncement()
            let first = try await client.uploadPhoto(try TestImages.bytes("jpeg-baseline.jpg"), to: created)
            let second = try await client.uploadPhoto(try TestImages.bytes("exif-orientation-3.jpg"), to: created)
            #expect(first.status == .created && second.status == .created)
            let url = try PetSpotJSON.decode(PhotoUploadResponse.self, from: Data(buffer: second.body)).photoURL
            let files = try await server.storedFiles()
            #expect(files.count == 1)
            #expect(url.hasSuffix(String(files[0].split(separator: "/").last!)))
        }
    }

    @Test func theClientsFilenameIsNeverAPath() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let created = try await client.createAnnouncement()
            let response = try await client.uploadPhoto(try TestImages.bytes("jpeg-baseline.jpg"), to: created,
                                                        filename: "../../etc/passwd")
            #expect(response.status == .created)
            let files = try await server.storedFiles()
            #expect(files.count == 1 && files[0].hasPrefix("photos/") && !files[0].contains("passwd"))
        }
    }
}

@Suite struct PreparedPhotoUploadTests {
    @Test func aPhotoPetspotPreparedIsStoredByteForByte() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let created = try await client.createAnnouncement()
            let prepared = try PhotoPipeline.prepare(try TestImages.bytes("exif-orientation-6.jpg")).data
            let response = try await client.uploadPhoto(prepared, to: created)
            #expect(response.status == .created)
            let digest = SHA256.hash(data: prepared).map { String(format: "%02x", $0) }.joined()
            let url = try PetSpotJSON.decode(PhotoUploadResponse.self, from: Data(buffer: response.body)).photoURL
            #expect(url.hasSuffix("/photos/\(digest).jpg"))
            #expect(try await server.services.photos.data(for: "\(digest).jpg") == prepared)
        }
    }

    /// Bigger than the intake's write buffer, so the part reaches the file in several writes, and
    /// full of CR bytes where the parser splits the body.
    @Test func aLargePreparedPhotoArrivesWhole() async throws {
        let server = try await TestServer(maxPhotoBytes: 20_000_000)
        try await server.test { client in
            let created = try await client.createAnnouncement()
            let prepared = try PhotoPipeline.prepare(try TestImages.cameraPhoto(),
                                                     options: PrepareOptions(encoding: EncodingOptions(quality: 100))).data
            #expect(prepared.count > 1_000_000 && prepared.filter { $0 == 0x0D }.count > 500)
            let response = try await client.uploadPhoto(prepared, to: created)
            #expect(response.status == .created)
            let digest = SHA256.hash(data: prepared).map { String(format: "%02x", $0) }.joined()
            #expect(try await server.services.photos.data(for: "\(digest).jpg") == prepared)
        }
    }

    @Test func aCameraPhotoIsPreparedFromTheReceivedFile() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let created = try await client.createAnnouncement()
            let camera = try TestImages.bytes("sample-photo.jpg")
            let response = try await client.uploadPhoto(camera, to: created)
            #expect(response.status == .created)
            let url = try PetSpotJSON.decode(PhotoUploadResponse.self, from: Data(buffer: response.body)).photoURL
            let key = String(url.split(separator: "/").last!)
            let stored = try #require(try await server.services.photos.data(for: key))
            #expect(stored != camera)
            #expect(key == SHA256.hash(data: stored).map { String(format: "%02x", $0) }.joined() + ".jpg")
            let info = try PhotoPipeline.inspect(stored)
            #expect(info.storedSize.longEdge <= 2048 && info.gps == nil)
            #expect(PhotoPipeline.isAlreadyPrepared(stored, options: PrepareOptions(maxDimension: 2048)))
        }
    }
}
