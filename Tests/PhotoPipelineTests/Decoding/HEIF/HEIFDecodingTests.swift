import Foundation
import Testing
@testable import PhotoPipeline

/// HEIC/AVIF through libheif on the project's own files (made by heif-enc in `TestImages/generate.py`).
@Suite struct HEIFDecodingTests {
    /// `sample-photo.jpg` in stored orientation (1600×1200), as heif-enc read it.
    private func storedSampleJPEG() throws -> PixelBuffer {
        let bytes = try Fixtures.bytes("sample-photo.jpg")
        return try JPEGDecoder().decode(bytes, info: try PhotoPipeline.inspect(bytes), minimumLongEdge: nil)
    }

    @Test(arguments: [("sample-photo.heic", MediaType.heic), ("sample-photo.avif", .avif)])
    func samplePhotoDecodesAsStoredWithItsEXIFButNotItsOrientation(_ name: String, _ type: MediaType) throws {
        let bytes = try Fixtures.bytes(name)
        let info = try PhotoPipeline.inspect(bytes)
        #expect(info.type == type)
        // heif-enc kept EXIF Orientation 6 and wrote no irot: the tag is never applied to HEIF.
        #expect(info.orientationTag == nil && info.uprightSize == PixelSize(width: 1600, height: 1200))
        #expect(info.encodingSummary.contains("EXIF orientation 6 ignored"), "\(info.encodingSummary)")
        let gps = try #require(info.gps)
        #expect(abs(gps.latitude - 52.23) < 1e-6 && abs(gps.longitude - 21.01) < 1e-6)
        #expect(info.capturedAt?.iso8601 == "2024-06-15T14:30:00+02:00")

        let pixels = try PhotoPipeline.decode(bytes)
        #expect(pixels.width == 1600 && pixels.height == 1200 && pixels.channels == 3)
        let ssim = PixelMetrics.ssim(pixels, try storedSampleJPEG())
        #expect(ssim > 0.85, "SSIM \(ssim) against the JPEG it was encoded from")
    }

    @Test func preparedHEICIsAnUprightJPEGWithoutMetadata() throws {
        let photo = try PhotoPipeline.prepare(try Fixtures.bytes("sample-photo.heic"), options: PrepareOptions(maxDimension: 800))
        #expect(photo.format == .jpeg && photo.size == PixelSize(width: 800, height: 600))
        let output = try PhotoPipeline.inspect(photo.data)
        #expect(output.type == .jpeg && output.orientationTag == nil && output.gps == nil && output.capturedAt == nil)
        #expect(output.uprightSize == PixelSize(width: 800, height: 600))
    }

    @Test func avifAlphaIsKeptAndFlattenedLikePNG() throws {
        let bytes = try Fixtures.bytes("heif-rgba-alpha.avif")
        #expect(try PhotoPipeline.inspect(bytes).hasAlpha)
        let image = try PhotoPipeline.decode(bytes)
        #expect(image.channels == 4 && image.width == 96 && image.height == 64)
        #expect(image.rgba(x: 2, y: 2).a < 16, "background \(image.rgba(x: 2, y: 2))")
        #expect(image.rgba(x: 32, y: 32).a > 240 && PixelMetrics.isClose(image, x: 32, y: 32, to: (255, 0, 0), tolerance: 40))

        var options = PrepareOptions(maxDimension: 96)
        options.background = .white
        let photo = try PhotoPipeline.prepare(bytes, options: options)
        let flat = try PhotoPipeline.decode(photo.data)
        #expect(flat.channels == 3)
        #expect(PixelMetrics.isClose(flat, x: 2, y: 2, to: (255, 255, 255), tolerance: 16), "\(flat.rgba(x: 2, y: 2))")
    }

    @Test func tenBitHEICReducesToEightBitsCorrectly() throws {
        let bytes = try Fixtures.bytes("heif-rgb16-10bit.heic")
        #expect(try PhotoPipeline.inspect(bytes).encodingSummary.contains("10-bit"))
        let image = try PhotoPipeline.decode(bytes)
        #expect(image.width == 64 && image.height == 48 && image.channels == 3)
        // The 16-bit ramps heif-enc encoded (TestImages/README.md), in 8 bits.
        var ramps = [UInt8]()
        for y in 0..<48 {
            for x in 0..<64 {
                ramps += [x * 255 / 63, y * 255 / 47, (63 - x) * (47 - y) * 255 / 2961].map { UInt8($0) }
            }
        }
        // A wrong shift (e.g. the low byte of 10 bits) gives garbage, not a small difference.
        let difference = PixelMetrics.meanAbsoluteDifference(image, PixelBuffer(width: 64, height: 48, channels: 3, pixels: ramps))
        #expect(difference < 6, "mean difference \(difference) from the ramps it was encoded from")
    }

    @Test func truncatedHEICIsRefusedAsDamaged() throws {
        let bytes = try Fixtures.bytes("bad-truncated.heic")
        do {
            let photo = try PhotoPipeline.prepare(bytes)
            Issue.record("prepared \(photo.size) from a truncated HEIC")
        } catch {
            #expect(["truncated", "corrupt"].contains(error.code), "\(error.code)")
            #expect(error.description.contains("HEIC photo"), "\(error)")
        }
    }

    @Test func declaredSizeOverThePixelLimitIsRefusedBeforeDecoding() throws {
        let limits = PhotoLimits(maxPixels: 1_000_000)
        #expect(throws: PhotoError.tooManyPixels(width: 1600, height: 1200, limit: 1_000_000)) {
            try PhotoPipeline.decode(try Fixtures.bytes("sample-photo.heic"), limits: limits)
        }
    }

    @Test func anMP4NamedHEICIsRefusedAsAVideo() {
        // ftyp isom with compatible isom/iso2/avc1/mp41: a video, not a HEIF brand.
        let mp4: [UInt8] = [0, 0, 0, 0x20] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isomiso2avc1mp41".utf8)
            + [0, 0, 0, 8] + Array("free".utf8)
        #expect(MediaSniffer.sniff(mp4) == .mp4)
        #expect(throws: PhotoError.unsupportedType(.mp4)) { try PhotoPipeline.decode(mp4) }
        // Without an mp4 brand (avc1 alone) it is not known as anything: not an image.
        let bare: [UInt8] = [0, 0, 0, 0x14] + Array("ftypavc1".utf8) + [0, 0, 0, 0] + Array("avc1".utf8)
        #expect(MediaSniffer.sniff(bare) == nil)
    }
}
