import Foundation
import Testing
@testable import PhotoPipeline

/// Every file in `$PETSPOT_CORPUS/expectations.json` gives its expected outcome:
/// valid → decodes to the upright size; invalid → the expected error, no crash.
@Suite(.enabled(if: Corpus.isAvailable, "set PETSPOT_CORPUS to the shared corpus"))
struct CorpusExpectationTests {
    @Test func expectationsAreLoaded() {
        #expect(Corpus.expectations.count > 300)
    }

    @Test(arguments: Corpus.expectations)
    func fileGivesItsExpectedOutcome(_ expected: Corpus.Expectation) throws {
        let bytes = try Corpus.bytes(expected.path)
        #expect(MediaSniffer.sniff(bytes)?.mimeType == expected.mime || (expected.mime == nil && MediaSniffer.sniff(bytes) == nil)
                || expected.acceptedErrors.contains("not-an-image"),
                "sniffed \(String(describing: MediaSniffer.sniff(bytes)))")
        if expected.valid {
            let info = try PhotoPipeline.inspect(bytes)
            let pixels = try PhotoPipeline.decode(bytes)
            #expect(pixels.width == expected.width && pixels.height == expected.height,
                    "decoded \(pixels.width)×\(pixels.height)")
            #expect(info.uprightSize == PixelSize(width: expected.width!, height: expected.height!))
            if let hasAlpha = expected.has_alpha { #expect(info.hasAlpha == hasAlpha) }
            if let animated = expected.animated { #expect(info.isAnimated == animated) }
            if let hasICC = expected.has_icc { #expect(info.hasICCProfile == hasICC) }
            #expect(info.orientationTag == expected.orientation)
            if expected.has_gps == true, let gps = expected.gps {
                let found = try #require(info.gps)
                #expect(abs(found.latitude - gps.lat) < 1e-6 && abs(found.longitude - gps.lon) < 1e-6)
            } else if expected.has_gps == false {
                #expect(info.gps == nil)
            }
            if let date = expected.datetime_original {
                #expect(info.capturedAt?.exifString == date)
            }
        } else {
            do {
                let pixels = try PhotoPipeline.decode(bytes)
                Issue.record("expected \(expected.acceptedErrors), decoded \(pixels.width)×\(pixels.height)")
            } catch {
                #expect(expected.acceptedErrors.contains(error.code), "got \(error.code): \(error)")
            }
        }
    }

    /// The whole pipeline (streamed, two workers) gives the same verdict as decoding.
    @Test(arguments: Corpus.expectations)
    func prepareGivesTheSameOutcome(_ expected: Corpus.Expectation) throws {
        let bytes = try Corpus.bytes(expected.path)
        let options = PrepareOptions(maxDimension: 256, threads: 2)
        do {
            let photo = try PhotoPipeline.prepare(bytes, options: options)
            #expect(expected.valid, "prepared a file that must be refused")
            if let width = expected.width, let height = expected.height {
                #expect(photo.size == PixelSize(width: width, height: height).fitting(longEdge: 256))
            }
        } catch {
            #expect(!expected.valid, "refused a valid file: \(error)")
            if !expected.valid { #expect(expected.acceptedErrors.contains(error.code), "got \(error.code): \(error)") }
        }
    }
}
