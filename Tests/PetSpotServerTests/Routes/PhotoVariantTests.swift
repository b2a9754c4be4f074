import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PetSpot
import PhotoPipeline
import Testing
@testable import PetSpotServer

/// The photo's fixed sizes × JPEG/WebP (`/photos/{digest}/{variant}`), made on first request.
@Suite struct PhotoVariantTests {
    /// Uploads the sample photo (1600 × 1200 stored, EXIF orientation 6: 1200 × 1600 upright)
    /// and returns the announcement's details.
    private func announcementWithPhoto(_ client: some TestClientProtocol) async throws -> PetDetails {
        let created = try await client.createAnnouncement()
        let upload = try await client.uploadPhoto(try TestImages.bytes("sample-photo.jpg"), to: created)
        try #require(upload.status == .created, "\(String(buffer: upload.body))")
        let shown = try await client.execute(uri: AnnouncementsAPI.announcementPath(id: created.id), method: .get)
        return try PetSpotJSON.decode(PetDetails.self, from: Data(buffer: shown.body))
    }

    private func path(_ url: String) -> String { String(url.dropFirst(TestServer.publicURL.count)) }

    @Test func theDetailsListEveryVariantAndEachIsThatSizeAndFormat() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let details = try await announcementWithPhoto(client)
            let variants = try #require(details.photoVariants)
            // No 1200 variant: the photo itself is 1200 wide.
            #expect(variants.map(\.width) == [320, 320, 640, 640, 1200, 1200])
            #expect(variants.map(\.height) == [427, 427, 853, 853, 1600, 1600])
            #expect(variants.map(\.format) == ["jpeg", "webp", "jpeg", "webp", "jpeg", "webp"])
            let digest = try #require(details.photoUrl?.split(separator: "/").last?.split(separator: ".").first)
            #expect(variants[2].url == "\(TestServer.publicURL)/photos/\(digest)/w640.jpg")
            for link in variants {
                let response = try await client.execute(uri: path(link.url), method: .get)
                #expect(response.status == .ok, "\(link.url)")
                #expect(response.headers[.contentType] == (link.format == "webp" ? "image/webp" : "image/jpeg"))
                #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable")
                let bytes = [UInt8](buffer: response.body)
                let info = try PhotoPipeline.inspect(bytes)
                #expect(info.type == (link.format == "webp" ? .webp : .jpeg))
                #expect(info.uprightSize == PixelSize(width: link.width, height: link.height), "\(link.url)")
                // Decodes to a picture, not just a header.
                let pixels = try PhotoPipeline.decode(bytes)
                #expect(pixels.width == link.width)
                let head = try await client.execute(uri: path(link.url), method: .head)
                #expect(head.headers[.contentLength] == String(bytes.count) && head.body.readableBytes == 0)
            }
            // Five made (the full-size JPEG is the photo itself); asking again makes none.
            #expect(server.services.variants.madeCount.load(ordering: .relaxed) == 5)
            for link in variants { _ = try await client.execute(uri: path(link.url), method: .get) }
            #expect(server.services.variants.madeCount.load(ordering: .relaxed) == 5)
            let stored = try await server.storedFiles().filter { $0.contains(String(digest)) }
            #expect(stored.count == 6, "\(stored)")
        }
    }

    /// The stored photo is the pipeline's `--quality auto` of the upload (within butteraugli 1.1
    /// of it resized), each variant its `auto:1.4` of the stored photo: each at its own quality,
    /// not one number for all. The distances are judged on the whole picture, with the bounds
    /// the corpus photos give (the choice scores a sample of tiles).
    @Test func theStoredPhotoAndItsVariantsAreMadeToButteraugliTargets() async throws {
        let camera = try TestImages.cameraPhoto()
        let server = try await TestServer(maxPhotoBytes: 4_000_000)
        try await server.test { client in
            let created = try await client.createAnnouncement()
            let upload = try await client.uploadPhoto(camera, to: created)
            try #require(upload.status == .created, "\(String(buffer: upload.body))")
            let shown = try await client.execute(uri: AnnouncementsAPI.announcementPath(id: created.id), method: .get)
            let details = try PetSpotJSON.decode(PetDetails.self, from: Data(buffer: shown.body))
            let variants = try #require(details.photoVariants)
            let stored = try #require(variants.first { $0.format == "jpeg" && $0.width == 2048 })
            let storedBytes = [UInt8](buffer: try await client.execute(uri: path(stored.url), method: .get).body)

            let auto = try PhotoPipeline.prepare(camera, options: PrepareOptions(maxDimension: 2048, autoQuality: AutoQuality()))
            #expect(storedBytes == auto.data, "the stored photo is prepare --quality auto's")
            #expect(storedBytes != (try PhotoPipeline.prepare(camera, options: PrepareOptions(maxDimension: 2048))).data)
            let reference = try PhotoPipeline.prepare(camera, options: PrepareOptions(maxDimension: 2048, encoding: EncodingOptions(format: .png)))
            let distance = try #require(try Butteraugli.distance(try PhotoPipeline.decode(reference.data), try PhotoPipeline.decode(storedBytes)))
            #expect(distance >= 0.75 * 1.1 && distance <= 1.08 * 1.1, "stored photo: butteraugli \(distance)")

            for link in variants where link.width == 640 {
                let bytes = [UInt8](buffer: try await client.execute(uri: path(link.url), method: .get).body)
                let options = PrepareOptions(maxDimension: max(link.width, link.height),
                                             encoding: EncodingOptions(format: link.format == "webp" ? .webp : .jpeg),
                                             autoQuality: AutoQuality(targetDistance: 1.4))
                #expect(bytes == (try PhotoPipeline.prepare(storedBytes, options: options)).data, "\(link.url) is prepare --quality auto:1.4's")
                let reference = try PhotoPipeline.prepare(storedBytes, options: PrepareOptions(maxDimension: options.maxDimension,
                                                                                                encoding: EncodingOptions(format: .png)))
                let variant = try #require(try Butteraugli.distance(try PhotoPipeline.decode(reference.data), try PhotoPipeline.decode(bytes)))
                #expect(variant >= 0.75 * 1.4 && variant <= 1.08 * 1.4, "\(link.url): butteraugli \(variant)")
            }
        }
    }

    @Test func aVariantHasAStrongETagAndByteRanges() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let details = try await announcementWithPhoto(client)
            let link = try #require(details.photoVariants?.first { $0.width == 640 && $0.format == "webp" })
            let full = try await client.execute(uri: path(link.url), method: .get)
            let etag = try #require(full.headers[.eTag])
            #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"))
            let bytes = [UInt8](buffer: full.body)
            let again = try await client.execute(uri: path(link.url), method: .get, headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified && again.body.readableBytes == 0)
            let part = try await client.execute(uri: path(link.url), method: .get, headers: [.range: "bytes=100-199"])
            #expect(part.status == .partialContent)
            #expect([UInt8](buffer: part.body) == Array(bytes[100...199]))
            #expect(part.headers[.contentRange] == "bytes 100-199/\(bytes.count)")
        }
    }

    @Test func fiftyRequestsAtOnceMakeTheVariantOnce() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let details = try await announcementWithPhoto(client)
            let link = try #require(details.photoVariants?.first { $0.width == 640 && $0.format == "webp" })
            let uri = path(link.url)
            let bodies = try await withThrowingTaskGroup(of: (HTTPResponse.Status, [UInt8]).self) { group in
                for _ in 0..<50 {
                    group.addTask {
                        let response = try await client.execute(uri: uri, method: .get)
                        return (response.status, [UInt8](buffer: response.body))
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(bodies.count == 50 && bodies.allSatisfy { $0.0 == .ok })
            #expect(Set(bodies.map(\.1)).count == 1)
            #expect(server.services.variants.madeCount.load(ordering: .relaxed) == 1)
        }
    }

    @Test func onlyTheFixedVariantsOfStoredPhotosExist() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let created = try await client.createAnnouncement()
            // 640 × 480: no 640 or 1200 variant (never scaled up), 320 and full only.
            let upload = try await client.uploadPhoto(try TestImages.bytes("jpeg-baseline.jpg"), to: created)
            let key = try #require(try PetSpotJSON.decode(PhotoUploadResponse.self, from: Data(buffer: upload.body)).photoURL.split(separator: "/").last)
            let digest = key.split(separator: ".")[0]
            let shown = try await client.execute(uri: AnnouncementsAPI.announcementPath(id: created.id), method: .get)
            let details = try PetSpotJSON.decode(PetDetails.self, from: Data(buffer: shown.body))
            #expect(details.photoVariants?.map(\.width) == [320, 320, 640, 640])
            for name in ["w640.jpg", "w1200.webp", "w641.webp", "w640.png", "w2000.jpg", "full.png", "w320", "W320.jpg",
                         "w0320.jpg", "w320.jpg.jpg", "..", "%2e%2e", "full.webp%00"] {
                let response = try await client.execute(uri: "/photos/\(digest)/\(name)", method: .get)
                #expect(response.status == .notFound, "\(name)")
            }
            for prefix in [String(repeating: "0", count: 64), digest.uppercased(), String(digest.dropLast()), "..%2F..%2Ftmp"] {
                let response = try await client.execute(uri: "/photos/\(prefix)/w320.jpg", method: .get)
                #expect(response.status == .notFound, "\(prefix)")
            }
            #expect(try await client.execute(uri: "/photos/\(digest)/w320.webp", method: .get).status == .ok)
            #expect(server.services.variants.madeCount.load(ordering: .relaxed) == 1)
            // Nothing was stored for the refused names.
            let stored = try await server.storedFiles().filter { $0.hasPrefix("photos/") }
            #expect(stored.count == 2, "\(stored)")
        }
    }

    /// A client that asks for WebP at the photo's own URL gets whichever of the JPEG and the
    /// full-size WebP is smaller, told apart by their ETags; others get the JPEG. Over the two
    /// photos each kind is the smaller once.
    @Test func aClientThatAsksForWebPGetsTheSmallerFileAtThePhotosOwnURL() async throws {
        let server = try await TestServer()
        try await server.test { client in
            var served: [String] = []
            for photo in ["sample-photo.jpg", "jpeg-progressive.jpg"] {
                let created = try await client.createAnnouncement()
                let upload = try await client.uploadPhoto(try TestImages.bytes(photo), to: created)
                try #require(upload.status == .created, "\(String(buffer: upload.body))")
                let shown = try await client.execute(uri: AnnouncementsAPI.announcementPath(id: created.id), method: .get)
                let details = try PetSpotJSON.decode(PetDetails.self, from: Data(buffer: shown.body))
                let uri = path(try #require(details.photoUrl))
                let digest = String(uri.split(separator: "/").last!.prefix { $0 != "." })
                let jpeg = try await client.execute(uri: uri, method: .get)
                #expect(jpeg.headers[.contentType] == "image/jpeg" && jpeg.headers[.vary] == "Accept")
                let webpVariant = try await client.execute(uri: "/photos/\(digest)/full.webp", method: .get)
                #expect(webpVariant.status == .ok && webpVariant.headers[.contentType] == "image/webp")
                let webpIsSmaller = webpVariant.body.readableBytes < jpeg.body.readableBytes
                let asked = try await client.execute(uri: uri, method: .get, headers: [.accept: "image/avif,image/webp,image/apng,*/*;q=0.8"])
                #expect(asked.status == .ok && asked.headers[.vary] == "Accept", "\(photo)")
                let smaller = webpIsSmaller ? webpVariant : jpeg
                #expect(asked.headers[.contentType] == smaller.headers[.contentType], "\(photo)")
                #expect(asked.headers[.eTag] == smaller.headers[.eTag] && asked.body == smaller.body, "\(photo)")
                if webpIsSmaller {
                    let info = try PhotoPipeline.inspect([UInt8](buffer: asked.body))
                    let stored = try PhotoPipeline.inspect([UInt8](buffer: jpeg.body))
                    #expect(info.type == .webp && info.uprightSize == stored.uprightSize)
                    #expect(asked.headers[.eTag] != jpeg.headers[.eTag])
                }
                served.append(asked.headers[.contentType] ?? "")
                for accept in ["image/webp;q=0", "*/*", "image/*", "image/jpeg"] {
                    let response = try await client.execute(uri: uri, method: .get, headers: [.accept: accept])
                    #expect(response.headers[.contentType] == "image/jpeg", "\(accept)")
                }
            }
            #expect(Set(served) == ["image/jpeg", "image/webp"], "\(served)")
        }
    }

    @Test func replacingThePhotoRemovesItsVariants() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let created = try await client.createAnnouncement()
            let first = try await client.uploadPhoto(try TestImages.bytes("sample-photo.jpg"), to: created)
            let firstKey = try PetSpotJSON.decode(PhotoUploadResponse.self, from: Data(buffer: first.body)).photoURL.split(separator: "/").last!
            let digest = firstKey.split(separator: ".")[0]
            for name in ["w320.jpg", "w640.webp", "full.webp"] {
                #expect(try await client.execute(uri: "/photos/\(digest)/\(name)", method: .get).status == .ok)
            }
            #expect(try await server.storedFiles().filter { $0.contains(String(digest)) }.count == 4)
            let second = try await client.uploadPhoto(try TestImages.bytes("jpeg-baseline.jpg"), to: created)
            #expect(second.status == .created)
            #expect(try await server.storedFiles().filter { $0.contains(String(digest)) }.isEmpty)
            #expect(try await client.execute(uri: "/photos/\(digest)/w320.jpg", method: .get).status == .notFound)
        }
    }

    @Test func theDiskSweepKeepsVariantsOfPhotosInUseOnly() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("petspot-variant-sweep-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try DiskPhotoStore(root: root)
        let kept = try await store.store([1, 2, 3], fileExtension: "jpg")
        let gone = try await store.store([4, 5, 6], fileExtension: "jpg")
        let keptVariant = PhotoVariant(size: .width(320), format: .webp).storeKey(digest: PhotoKey.digest(of: kept))
        let goneVariant = PhotoVariant(size: .full, format: .webp).storeKey(digest: PhotoKey.digest(of: gone))
        try await store.store([7], as: keptVariant)
        try await store.store([8], as: goneVariant)
        #expect(try await store.keys() == [kept, gone, keptVariant, goneVariant])
        #expect(store.sweep(keeping: [kept]) == 2)
        #expect(try await store.keys() == [kept, keptVariant])
        #expect(PhotoKey.owner(of: keptVariant) == kept)
    }
}
