import Foundation
import Testing
@testable import PhotoPipeline

/// A receiver keeps a photo byte for byte only when preparing it again would change nothing.
@Suite struct AlreadyPreparedTests {
    static func sample(_ name: String) throws -> [UInt8] {
        try Fixtures.bytes(name)
    }

    @Test func theOutputOfPrepareIsAlreadyPrepared() throws {
        let options = PrepareOptions(maxDimension: 256)
        let prepared = try PhotoPipeline.prepare(try Self.sample("exif-orientation-6.jpg"), options: options)
        #expect(PhotoPipeline.isAlreadyPrepared(prepared.data, options: options))
        let withICC = try PhotoPipeline.prepare(try Self.sample("jpeg-icc-srgb.jpg"), options: options)
        #expect(PhotoPipeline.isAlreadyPrepared(withICC.data, options: options))
    }

    @Test(arguments: ["exif-orientation-6.jpg", "exif-orientation-1.jpg", "jpeg-gps-date.jpg", "jpeg-cmyk.jpg",
                      "bad-truncated.jpg", "png-gray8.png", "webp-lossy.webp"])
    func photosWithMetadataOrAnotherShapeAreNot(name: String) throws {
        #expect(!PhotoPipeline.isAlreadyPrepared(try Self.sample(name), options: PrepareOptions()))
    }

    @Test func aPhotoLargerThanTheLimitIsNot() throws {
        let prepared = try PhotoPipeline.prepare(try Self.sample("sample-photo.jpg"), options: PrepareOptions(maxDimension: 512))
        #expect(PhotoPipeline.isAlreadyPrepared(prepared.data, options: PrepareOptions(maxDimension: 512)))
        #expect(!PhotoPipeline.isAlreadyPrepared(prepared.data, options: PrepareOptions(maxDimension: 511)))
    }

    @Test func aCommentSegmentDisqualifies() throws {
        let options = PrepareOptions(maxDimension: 128)
        var bytes = try PhotoPipeline.prepare(try Self.sample("jpeg-baseline.jpg"), options: options).data
        bytes.insert(contentsOf: [0xFF, 0xFE, 0x00, 0x06] + Array("hey!".utf8), at: 2)
        #expect(!PhotoPipeline.isAlreadyPrepared(bytes, options: options))
    }

    @Test(arguments: [[0x00], Array("PK\u{03}\u{04} a zip rides along".utf8), [0xFF, 0xD8, 0xFF, 0xD9]])
    func bytesAfterTheEndOfImageDisqualify(trailer: [UInt8]) throws {
        let options = PrepareOptions(maxDimension: 128)
        let bytes = try PhotoPipeline.prepare(try Self.sample("jpeg-baseline.jpg"), options: options).data
        #expect(PhotoPipeline.isAlreadyPrepared(bytes, options: options))
        #expect(!PhotoPipeline.isAlreadyPrepared(bytes + trailer, options: options))
    }

    @Test func aFileCutBeforeTheEndOfImageIsNot() throws {
        let options = PrepareOptions(maxDimension: 128)
        let bytes = try PhotoPipeline.prepare(try Self.sample("jpeg-baseline.jpg"), options: options).data
        #expect(!PhotoPipeline.isAlreadyPrepared(Array(bytes.dropLast(2)), options: options))
    }

    /// The check decodes at 1/8 scale; entropy-coded data missing from the middle of the scan
    /// still shows (libjpeg reads every coefficient), as it does to a full decode.
    @Test func aFileMissingPartOfItsScanIsNot() throws {
        let options = PrepareOptions(maxDimension: 512)
        let bytes = try PhotoPipeline.prepare(try Self.sample("sample-photo.jpg"), options: options).data
        let frame = try #require(JPEGSegments.frameIfMetadataFree(bytes))
        let middle = frame.scanOffset + (bytes.count - frame.scanOffset) / 2
        var cut = bytes
        cut.removeSubrange(middle..<(middle + (bytes.count - frame.scanOffset) / 4))
        #expect(JPEGSegments.imageEnd(cut, scanAt: frame.scanOffset) == cut.count)
        #expect(throws: PhotoError.self) { try PhotoPipeline.decode(cut) }
        #expect(!PhotoPipeline.isAlreadyPrepared(cut, options: options))
        #expect(PhotoPipeline.isAlreadyPrepared(bytes, options: options))
    }

    @Test func aPreparedFileIsReadWholeAndOthersAreNot() throws {
        let options = PrepareOptions(maxDimension: 512)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("already-prepared-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let prepared = try PhotoPipeline.prepare(try Self.sample("sample-photo.jpg"), options: options).data
        let preparedPath = folder.appendingPathComponent("prepared.jpg").path
        let cameraPath = folder.appendingPathComponent("camera.jpg").path
        try Data(prepared).write(to: URL(fileURLWithPath: preparedPath))
        try Data(try Self.sample("jpeg-gps-date.jpg")).write(to: URL(fileURLWithPath: cameraPath))
        #expect(try PhotoPipeline.alreadyPrepared(contentsOf: preparedPath, options: options) == prepared)
        #expect(try PhotoPipeline.alreadyPrepared(contentsOf: cameraPath, options: options) == nil)
        #expect(try PhotoPipeline.alreadyPrepared(contentsOf: preparedPath, options: PrepareOptions(maxDimension: 256)) == nil)
        #expect(throws: PhotoError.fileTooLarge(bytes: prepared.count, limit: 1000)) {
            try PhotoPipeline.alreadyPrepared(contentsOf: preparedPath,
                                              options: PrepareOptions(maxDimension: 512, limits: PhotoLimits(maxInputBytes: 1000)))
        }
    }
}
