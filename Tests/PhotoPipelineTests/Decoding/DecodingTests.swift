import Crypto
import Foundation
import Testing
@testable import PhotoPipeline

/// Decoded pixels, not just sizes: colour spaces, bit depths, palettes, transparency, interlacing.
@Suite struct DecodingTests {
    @Test func cmykJPEGBecomesRGB() throws {
        let image = try PhotoPipeline.decode(try Fixtures.bytes("jpeg-cmyk.jpg"))
        #expect(image.channels == 3 && image.width == 160 && image.height == 120)
        #expect(PixelMetrics.isClose(image, x: 40, y: 60, to: (255, 0, 0)), "left half \(image.rgba(x: 40, y: 60))")
        #expect(PixelMetrics.isClose(image, x: 120, y: 60, to: (0, 0, 255)), "right half \(image.rgba(x: 120, y: 60))")
    }

    @Test func grayscaleJPEGStaysOneChannel() throws {
        let image = try PhotoPipeline.decode(try Fixtures.bytes("jpeg-grayscale.jpg"))
        #expect(image.channels == 1 && image.width == 320 && image.height == 240)
    }

    @Test func progressiveAndBaselineDecodeToTheSamePicture() throws {
        let baseline = try PhotoPipeline.decode(try Fixtures.bytes("jpeg-baseline.jpg"))
        let progressive = try PhotoPipeline.decode(try Fixtures.bytes("jpeg-progressive.jpg"))
        #expect(PixelMetrics.meanAbsoluteDifference(baseline, progressive) < 3)
    }

    @Test func sixteenBitGrayReducesToEightBits() throws {
        let image = try PhotoPipeline.decode(try Fixtures.bytes("png-gray16.png"))
        #expect(image.channels == 1)
        #expect(image.rgba(x: 0, y: 0).r == 0)
        #expect(image.rgba(x: 63, y: 47).r == 255)
    }

    @Test func paletteWithTransparencyDecodesToRGBA() throws {
        let image = try PhotoPipeline.decode(try Fixtures.bytes("png-palette-trns.png"))
        #expect(image.channels == 4)
        #expect(image.rgba(x: 10, y: 10).a == 0)
        #expect(image.rgba(x: 50, y: 8) == (255, 0, 0, 255))
        #expect(image.rgba(x: 50, y: 40) == (0, 0, 255, 255))
    }

    @Test func grayAlphaKeepsItsAlpha() throws {
        let image = try PhotoPipeline.decode(try Fixtures.bytes("png-gray-alpha.png"))
        #expect(image.channels == 4)
        #expect(image.rgba(x: 5, y: 0).a == 0)
        #expect(image.rgba(x: 5, y: 47).a == 255)
    }

    @Test func losslessWebPIsExact() throws {
        let image = try PhotoPipeline.decode(try Fixtures.bytes("webp-lossless.webp"))
        for q in OrientationTests.quadrants {
            let p = image.rgba(x: q.x, y: q.y)
            #expect((Int(p.r), Int(p.g), Int(p.b)) == q.color)
        }
    }

    @Test(arguments: [("bad-truncated.jpg", "Premature end"), ("bad-truncated.png", "cut short")])
    func truncatedFilesAreRefusedAsTruncated(_ name: String, _ phrase: String) throws {
        let bytes = try Fixtures.bytes(name)
        do {
            let image = try PhotoPipeline.decode(bytes)
            Issue.record("a truncated file decoded to \(image.width)×\(image.height)")
        } catch {
            #expect(error.code == "truncated")
            #expect(error.description.contains(phrase), "\(error)")
        }
    }

    @Test func jpegScaledDecodeStaysAboveTheRequestedSize() throws {
        let bytes = try Fixtures.bytes("jpeg-baseline.jpg")
        let info = try PhotoPipeline.inspect(bytes)
        let half = try JPEGDecoder().decode(bytes, info: info, minimumLongEdge: 300)
        #expect(half.width == 320 && half.height == 240)
        let eighth = try JPEGDecoder().decode(bytes, info: info, minimumLongEdge: 80)
        #expect(eighth.width == 80 && eighth.height == 60)
        let full = try JPEGDecoder().decode(bytes, info: info, minimumLongEdge: 400)
        #expect(full.width == 640)
    }
}

/// Against the codecs' own conformance data in the corpus.
@Suite(.enabled(if: Corpus.isAvailable, "set PETSPOT_CORPUS to the shared corpus"))
struct CorpusDecodingTests {
    /// PngSuite: each interlaced file decodes to exactly the pixels of its non-interlaced twin.
    static let interlacedPairs = ["0g01", "0g02", "0g04", "0g08", "0g16", "2c08", "2c16", "3p01", "3p02", "3p04", "3p08",
                                  "4a08", "4a16", "6a08", "6a16"]

    @Test(arguments: interlacedPairs)
    func interlacedPNGMatchesItsTwin(_ kind: String) throws {
        let interlaced = try PhotoPipeline.decode(try Corpus.bytes("pngsuite/basi\(kind).png"))
        let plain = try PhotoPipeline.decode(try Corpus.bytes("pngsuite/basn\(kind).png"))
        #expect(interlaced.width == plain.width && interlaced.channels == plain.channels)
        let differing = zip(interlaced.pixels, plain.pixels).filter { $0 != $1 }.count
        #expect(differing == 0, "\(differing) of \(plain.pixels.count) samples differ")
    }

    /// libwebp-test-data's md5 of `dwebp -pam` output: our RGBA must be bit-identical.
    static let webpReference: [(String, String)] = {
        guard let root = Corpus.root,
              let text = try? String(contentsOf: root.appendingPathComponent("webp/libwebp/libwebp_tests.pam.md5"), encoding: .utf8)
        else { return [] }
        return text.split(separator: "\n").compactMap { line -> (String, String)? in
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count == 2 else { return nil }
            let name = String(parts[1]).replacingOccurrences(of: ".pam", with: "")
            // bad_palette_index: libwebp outputs transparent black for bad indices in a file without
            // an alpha flag; we decode a file without alpha as RGB, so that alpha is not there to hash.
            return name.hasPrefix("bad_palette_index") ? nil : (name, String(parts[0]))
        }
    }()

    @Test func referenceListIsLoaded() {
        #expect(Self.webpReference.count >= 40)
    }

    @Test(arguments: webpReference)
    func webpDecodeIsBitExactWithDwebp(_ name: String, _ md5: String) throws {
        let image = try PhotoPipeline.decode(try Corpus.bytes("webp/libwebp/\(name)"))
        var pam = Array("P7\nWIDTH \(image.width)\nHEIGHT \(image.height)\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n".utf8)
        pam.reserveCapacity(pam.count + image.width * image.height * 4)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image.rgba(x: x, y: y)
                pam += [p.r, p.g, p.b, p.a]
            }
        }
        let digest = Insecure.MD5.hash(data: pam).map { String(format: "%02x", $0) }.joined()
        #expect(digest == md5)
    }
}

/// Streaming a JPEG's rows through the resizer gives exactly what decoding it whole and resizing gives.
@Suite struct StreamingDecodeTests {
    @Test(arguments: [("jpeg-baseline.jpg", 1), ("jpeg-baseline.jpg", 2), ("jpeg-progressive.jpg", 2),
                      ("jpeg-grayscale.jpg", 2), ("jpeg-cmyk.jpg", 2), ("sample-photo.jpg", 1), ("sample-photo.jpg", 2),
                      ("sample-photo.jpg", 3)])
    func streamedResizeEqualsWholeResize(_ name: String, _ threads: Int) throws {
        let bytes = try Fixtures.bytes(name)
        let info = try PhotoPipeline.inspect(bytes)
        let target = info.storedSize.fitting(longEdge: 150)
        let resize = ResizeRequest(target: target, minimumLongEdge: 300, threads: threads)
        let streamed = try JPEGDecoder().decodeResized(bytes, info: info, resize: resize, planar: nil)
        let whole = try JPEGDecoder().decode(bytes, info: info, minimumLongEdge: 300)
        #expect(streamed.decodedSize == PixelSize(width: whole.width, height: whole.height))
        #expect(try streamed.rgb() == whole.resized(to: target))
    }

    /// The decoder writes rows straight into their upright places: the same pixels as resizing, then
    /// turning the result, for all eight orientations, resized or not, with one or two bands.
    @Test(arguments: ExifOrientation.allCases)
    func orientationFoldedIntoTheDecodeEqualsTurningAfterwards(_ orientation: ExifOrientation) throws {
        let bytes = try Fixtures.bytes("jpeg-baseline.jpg")
        let info = try PhotoPipeline.inspect(bytes)
        let whole = try JPEGDecoder().decode(bytes, info: info, minimumLongEdge: nil)
        for (target, threads) in [(info.storedSize.fitting(longEdge: 150), 2), (info.storedSize.fitting(longEdge: 150), 1),
                                  (info.storedSize, 1)] {
            let resize = ResizeRequest(target: target, threads: threads, orientation: orientation)
            let decoded = try JPEGDecoder().decodeResized(bytes, info: info, resize: resize, planar: nil)
            #expect(decoded.isUpright)
            #expect(try decoded.rgb() == whole.resized(to: target).oriented(orientation), "\(target), \(threads) bands")
        }
    }

    @Test(arguments: [1, 2, 4])
    func damagedJPEGFailsCleanlyWhateverTheWorkerCount(_ threads: Int) throws {
        let bytes = try Fixtures.bytes("bad-truncated.jpg")
        for _ in 0..<20 {
            #expect(throws: PhotoError.truncated(.jpeg, detail: "libjpeg-turbo: Premature end of JPEG file")) {
                try PhotoPipeline.prepare(bytes, options: PrepareOptions(maxDimension: 300, threads: threads))
            }
        }
    }

    @Test func pngIsCompositedOntoTheBackgroundWhenTheOutputHasNoAlpha() throws {
        let bytes = try Fixtures.bytes("png-palette-trns.png")
        let info = try PhotoPipeline.inspect(bytes)
        let resize = ResizeRequest(target: info.storedSize, threads: 1, flattenOnto: RGBColor(red: 0, green: 128, blue: 255))
        let flat = try PNGDecoder().decodeResized(bytes, info: info, resize: resize, planar: nil).rgb()
        #expect(flat.channels == 3)
        #expect(flat.rgba(x: 10, y: 10) == (0, 128, 255, 255), "transparent half shows the background")
        #expect(flat.rgba(x: 50, y: 8) == (255, 0, 0, 255), "opaque half is untouched")
    }

    @Test func dctScalingPicksPowerOfTwoWithHeadroom() {
        let size = PixelSize(width: 4032, height: 3024)
        #expect(JPEGDecoder.scaleDenominator(size, minimumLongEdge: 4096) == 1)
        #expect(JPEGDecoder.scaleDenominator(size, minimumLongEdge: 2048) == 1)
        #expect(JPEGDecoder.scaleDenominator(size, minimumLongEdge: 2016) == 2)
        #expect(JPEGDecoder.scaleDenominator(size, minimumLongEdge: 1000) == 4)
        #expect(JPEGDecoder.scaleDenominator(size, minimumLongEdge: 300) == 8)
        #expect(JPEGDecoder.scaleDenominator(size, minimumLongEdge: nil) == 1)
    }
}
