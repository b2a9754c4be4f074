import Foundation
import Testing
@testable import PhotoPipeline

/// Every file in `$PETSPOT_CORPUS/heif/` gives its expected outcome through libheif; every "ok"
/// file decodes upright (irot/imir once, the EXIF tag never) and matches its reference picture.
@Suite(.enabled(if: Corpus.isAvailable, "set PETSPOT_CORPUS to the shared corpus"))
struct HEIFCorpusTests {
    @Test func expectationsAreLoaded() {
        #expect(HEIFCorpus.expectations.count >= 30)
        #expect(Corpus.heifEntries.count >= 8)
    }

    @Test(arguments: HEIFCorpus.expectations)
    func fileGivesItsExpectedOutcome(_ expected: HEIFCorpus.Expectation) throws {
        let bytes = try Corpus.bytes(expected.path)
        guard expected.isOK else {
            do {
                let pixels = try PhotoPipeline.decode(bytes)
                Issue.record("expected \(expected.reason ?? "?"), decoded \(pixels.width)×\(pixels.height)")
            } catch {
                #expect(expected.accepts(error.code), "got \(error.code): \(error)")
            }
            return
        }
        let info = try PhotoPipeline.inspect(bytes)
        let upright = PixelSize(width: try #require(expected.width), height: try #require(expected.height))
        #expect(info.uprightSize == upright)
        #expect(info.orientationTag == nil, "the EXIF orientation of a HEIF file is never applied")
        if let hasAlpha = expected.has_alpha { #expect(info.hasAlpha == hasAlpha) }
        if let bits = expected.bit_depth { #expect(info.encodingSummary.contains("\(bits)-bit"), "\(info.encodingSummary)") }
        if expected.colour_profile == "prof" || expected.colour_profile == "rICC" { #expect(info.hasICCProfile) }
        if expected.colour_profile == "nclx" { #expect(info.encodingSummary.contains("nclx"), "\(info.encodingSummary)") }

        let pixels = try PhotoPipeline.decode(bytes)
        #expect(PixelSize(width: pixels.width, height: pixels.height) == upright)
        let reference = try PhotoPipeline.decode(Corpus.bytes("heif/" + (try #require(expected.ref))))
        let score = Self.similarity(pixels, reference)
        #expect(score >= (expected.ssim_min ?? 0.85), "SSIM \(score) against \(expected.ref ?? "")")
    }

    /// The whole pipeline to a 512-px JPEG: upright, no orientation tag, same picture as the reference.
    @Test(arguments: HEIFCorpus.expectations.filter(\.isOK))
    func preparedJPEGMatchesTheReference(_ expected: HEIFCorpus.Expectation) throws {
        let bytes = try Corpus.bytes(expected.path)
        let photo = try PhotoPipeline.prepare(bytes, options: PrepareOptions(maxDimension: 512, threads: 2))
        let upright = PixelSize(width: expected.width!, height: expected.height!)
        #expect(photo.size == upright.fitting(longEdge: 512))
        let output = try PhotoPipeline.inspect(photo.data)
        #expect(output.type == .jpeg && output.orientationTag == nil && output.uprightSize == photo.size)
        let reference = try PhotoPipeline.decode(Corpus.bytes("heif/" + expected.ref!))
        let score = Self.similarity(try PhotoPipeline.decode(photo.data), reference)
        #expect(score >= (expected.ssim_min ?? 0.85), "SSIM \(score)")
    }

    /// The HEIC/AVIF files the main corpus listed as "unsupported" now decode (first frame of an
    /// animation) to their stored size, or are refused by a named decoding error, never "unsupported".
    @Test(arguments: Corpus.heifEntries)
    func formerlyUnsupportedFilesDecode(_ entry: Corpus.Expectation) throws {
        let bytes = try Corpus.bytes(entry.path)
        let pixels = try PhotoPipeline.decode(bytes)
        if let width = entry.stored_width, let height = entry.stored_height {
            #expect(pixels.width == width && pixels.height == height)
        }
        if let hasAlpha = entry.has_alpha { #expect(try PhotoPipeline.inspect(bytes).hasAlpha == hasAlpha) }
    }

    /// SSIM after resizing `image` to the reference's size (references are ≤ 512 px).
    static func similarity(_ image: PixelBuffer, _ reference: PixelBuffer) -> Double {
        let size = PixelSize(width: reference.width, height: reference.height)
        let resized = image.width == size.width && image.height == size.height
            ? image : image.resized(to: size, filter: .lanczos3, threads: 2)
        return PixelMetrics.ssim(resized, reference)
    }
}
