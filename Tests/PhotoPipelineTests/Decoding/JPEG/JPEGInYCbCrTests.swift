import Foundation
import Testing
import CResample
@testable import PhotoPipeline

/// JPEG to JPEG is resized in the file's own Y, Cb and Cr planes and encoded from them. These tests
/// hold it to the RGB path every other format takes: same size, same orientation, pixels within
/// rounding and chroma-resampling differences, at every chroma sampling libjpeg writes.
@Suite struct JPEGInYCbCrTests {
    static let samplings = ["sampling-1x1.jpg", "sampling-2x1.jpg", "sampling-1x2.jpg", "sampling-2x2.jpg",
                            "sampling-4x1.jpg", "sampling-2x2-progressive.jpg"]

    static func fixture(_ name: String) throws -> [UInt8] {
        try FileIO.read(Fixtures.packageRoot.appendingPathComponent("Tests/PhotoPipelineTests/Fixtures/sampling")
            .appendingPathComponent(name).path)
    }

    /// The planes as RGB next to the RGB resize of the same request.
    static func compare(_ bytes: [UInt8], _ resize: ResizeRequest, _ subsampling: ChromaSubsampling) throws
        -> (planes: YCbCrImage, rgb: PixelBuffer, reference: PixelBuffer, decodedSizes: (PixelSize, PixelSize)) {
        let info = try PhotoPipeline.inspect(bytes)
        let planar = try JPEGDecoder().decodeResized(bytes, info: info, resize: resize, planar: PlanarOutput(subsampling: subsampling))
        guard case .planes(let planes) = planar.content else {
            throw PhotoError.corrupt(.jpeg, detail: "the decoder gave pixels, not planes")
        }
        let reference = try JPEGDecoder().decodeResized(bytes, info: info, resize: resize, planar: nil)
        return (planes, try planes.rgb(), try reference.rgb(), (planar.decodedSize, reference.decodedSize))
    }

    @Test(arguments: samplings)
    func planesMatchTheRGBResize(_ name: String) throws {
        let bytes = try Self.fixture(name)
        let stored = try PhotoPipeline.inspect(bytes).storedSize
        // Odd-sized shrink, no resize at all, and a DCT-scaled decode (1/2) finished by the filter.
        let cases: [(PixelSize, Int?)] = [(stored.fitting(longEdge: 101), nil), (stored, nil), (stored.fitting(longEdge: 97), 150)]
        for subsampling in [ChromaSubsampling.half, .full] {
            for threads in [1, 2] {
                for (target, minimumLongEdge) in cases {
                    let resize = ResizeRequest(target: target, minimumLongEdge: minimumLongEdge, threads: threads)
                    let result = try Self.compare(bytes, resize, subsampling)
                    let label = "\(name) → \(target), \(subsampling), \(threads) worker(s)"
                    #expect(result.planes.size == target, "\(label)")
                    #expect(result.planes.subsampling == subsampling, "\(label)")
                    #expect(result.decodedSizes.0 == result.decodedSizes.1, "\(label)")
                    let difference = PixelMetrics.meanAbsoluteDifference(result.rgb, result.reference)
                    #expect(difference < 2.5, "\(label): mean difference \(difference)")
                    #expect(PixelMetrics.ssim(result.rgb, result.reference) > 0.98, "\(label)")
                }
            }
        }
    }

    /// 4:2:2 chroma has half the luma's width but all its height: a turn that forgot to swap the
    /// chroma plane's sides, or placed a plane's samples wrongly, shows up as a large difference.
    @Test(arguments: ExifOrientation.allCases)
    func planesAreTurnedUpright(_ orientation: ExifOrientation) throws {
        let bytes = try Self.fixture("sampling-2x1.jpg")
        let stored = try PhotoPipeline.inspect(bytes).storedSize
        for threads in [1, 2] {
            let target = stored.fitting(longEdge: 101)
            let result = try Self.compare(bytes, ResizeRequest(target: target, threads: threads, orientation: orientation), .half)
            #expect(result.planes.size == (orientation.swapsDimensions ? target.transposed : target))
            let difference = PixelMetrics.meanAbsoluteDifference(result.rgb, result.reference)
            #expect(difference < 2.5, "\(orientation), \(threads) worker(s): mean difference \(difference)")
        }
    }

    /// The comparison above can fail: the same planes against the unturned picture differ a lot.
    @Test func aWronglyTurnedPictureIsCaught() throws {
        let bytes = try Self.fixture("sampling-2x1.jpg")
        let target = try PhotoPipeline.inspect(bytes).storedSize.fitting(longEdge: 101)
        let turned = try Self.compare(bytes, ResizeRequest(target: target, threads: 1, orientation: .down), .half)
        let upright = try Self.compare(bytes, ResizeRequest(target: target, threads: 1), .half)
        #expect(PixelMetrics.meanAbsoluteDifference(turned.rgb, upright.reference) > 10)
    }

    @Test(arguments: ["jpeg-grayscale.jpg", "jpeg-cmyk.jpg"])
    func grayAndCMYKFilesStillGivePixels(_ name: String) throws {
        let bytes = try Fixtures.bytes(name)
        let info = try PhotoPipeline.inspect(bytes)
        let resize = ResizeRequest(target: info.storedSize.fitting(longEdge: 100), threads: 2)
        let decoded = try JPEGDecoder().decodeResized(bytes, info: info, resize: resize, planar: PlanarOutput(subsampling: .half))
        guard case .pixels(let pixels) = decoded.content else {
            Issue.record("\(name) came back as planes")
            return
        }
        #expect(pixels.width == 100 || pixels.height == 100)
    }

    /// The luma sampling factors of a JPEG's first component, from its SOF segment.
    static func lumaSampling(_ jpeg: [UInt8]) -> (Int, Int)? {
        var i = 2
        while i + 4 < jpeg.count, jpeg[i] == 0xFF {
            let marker = jpeg[i + 1]
            let length = Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3])
            if [0xC0, 0xC1, 0xC2].contains(marker), i + 11 < jpeg.count {
                let factors = jpeg[i + 11]
                return (Int(factors >> 4), Int(factors & 0x0F))
            }
            i += 2 + length
        }
        return nil
    }

    /// Qualities below 95 write 4:2:0 (90 and 94 too, where libjpeg's habit is 4:4:4) and 95
    /// writes 4:4:4, as the RGB path does; the photo is the one the RGB path makes, within rounding.
    @Test(arguments: [(85, 2), (90, 2), (94, 2), (95, 1)])
    func prepareEncodesThePlanesWithTheQualitysSubsampling(_ quality: Int, _ lumaFactor: Int) throws {
        let bytes = try Fixtures.bytes("sample-photo.jpg")
        let planar = try PhotoPipeline.prepare(bytes, options: PrepareOptions(maxDimension: 300, encoding: EncodingOptions(quality: quality)))
        let rgb = try PhotoPipeline.prepare(bytes, options: PrepareOptions(maxDimension: 300, encoding: EncodingOptions(quality: quality)).resizingRGB)
        #expect(Self.lumaSampling(planar.data).map { [$0.0, $0.1] } == [lumaFactor, lumaFactor])
        #expect(Self.lumaSampling(rgb.data).map { [$0.0, $0.1] } == [lumaFactor, lumaFactor])
        #expect(planar.size == rgb.size)
        let a = try PhotoPipeline.decode(planar.data), b = try PhotoPipeline.decode(rgb.data)
        #expect(PixelMetrics.meanAbsoluteDifference(a, b) < 2.5)
        #expect(PixelMetrics.ssim(a, b) > 0.97)
    }

    /// JPEG to lossy WebP goes from the planes too (mapped to VP8's video range); the picture is the
    /// one the RGB path gives, within rounding. Lossless WebP still takes pixels, bit for bit the RGB path's.
    @Test func webpFromPlanesMatchesWebPFromPixels() throws {
        let bytes = try Fixtures.bytes("sample-photo.jpg")
        let lossy = EncodingOptions(format: .webp, quality: 80)
        let planar = try PhotoPipeline.prepare(bytes, options: PrepareOptions(maxDimension: 300, encoding: lossy))
        let rgb = try PhotoPipeline.prepare(bytes, options: PrepareOptions(maxDimension: 300, encoding: lossy).resizingRGB)
        #expect(planar.size == rgb.size)
        let a = try PhotoPipeline.decode(planar.data), b = try PhotoPipeline.decode(rgb.data)
        #expect(PixelMetrics.meanAbsoluteDifference(a, b) < 2.5)
        #expect(PixelMetrics.ssim(a, b) > 0.97)

        let lossless = EncodingOptions(format: .webp, lossless: true)
        #expect(RenderedImage.planes(for: lossless) == nil)
        let exact = try PhotoPipeline.prepare(bytes, options: PrepareOptions(maxDimension: 300, encoding: lossless))
        let exactRGB = try PhotoPipeline.prepare(bytes, options: PrepareOptions(maxDimension: 300, encoding: lossless).resizingRGB)
        #expect(try PhotoPipeline.decode(exact.data) == PhotoPipeline.decode(exactRGB.data))
    }

    @Test func fullRangeSamplesMapOntoVideoRange() {
        #expect(WebPEncoder.videoRangeLuma[0] == 16 && WebPEncoder.videoRangeLuma[255] == 235 && WebPEncoder.videoRangeLuma[128] == 126)
        #expect(WebPEncoder.videoRangeChroma[0] == 16 && WebPEncoder.videoRangeChroma[128] == 128 && WebPEncoder.videoRangeChroma[255] == 240)
        #expect(zip(WebPEncoder.videoRangeLuma, WebPEncoder.videoRangeLuma.dropFirst()).allSatisfy { $0 <= $1 }, "monotonic")
    }

    /// Upright planes are encoded while they are resized (two or more workers): the same bytes as
    /// encoding the finished planes afterwards, for both subsamplings, baseline and progressive,
    /// even and odd sizes.
    @Test(arguments: [(85, false), (95, false), (85, true)])
    func planesEncodedWhileResizedMatchEncodingThemAfterwards(_ quality: Int, _ progressive: Bool) throws {
        let bytes = try Fixtures.bytes("sample-photo.jpg")
        let info = try PhotoPipeline.inspect(bytes)
        let options = EncodingOptions(quality: quality, progressive: progressive)
        for target in [PixelSize(width: 800, height: 600), PixelSize(width: 397, height: 298)] {
            let subsampling = JPEGEncoder.subsampling(quality: quality)
            let planar = PlanarOutput(subsampling: subsampling, alongside: { JPEGPlanesEncoder(options: options, subsampling: subsampling) })
            let decoded = try JPEGDecoder().decodeResized(bytes, info: info, resize: ResizeRequest(target: target, threads: 2),
                                                          planar: planar)
            guard case .encoded(let encoded, let planes) = decoded.content else {
                Issue.record("no JPEG was encoded alongside for \(target)")
                continue
            }
            #expect(encoded.options == options)
            let streamed = encoded.data
            let afterwards = try JPEGEncoder(workers: Workers()).encode(planes, options: options, iccProfile: nil)
            #expect(streamed == afterwards, "\(target), q\(quality)")
            #expect(try PhotoPipeline.inspect(streamed).storedSize == target)
        }
    }

    /// A photo cut short after the encoder has written a few rows: the refusal, every time, and no
    /// crash (libjpeg's memory destination had moved to a bigger buffer, and freeing the one it
    /// first named was a double free; found by the corpus test of a JPEG cut mid-scan).
    @Test func aPhotoCutShortWhileBeingEncodedIsRefusedCleanly() throws {
        let whole = try Fixtures.bytes("sample-photo.jpg")
        let info = try PhotoPipeline.inspect(whole)
        let cut = Array(whole.prefix(whole.count * 7 / 10))
        let resize = ResizeRequest(target: info.storedSize, threads: 2)
        let planar = PlanarOutput(subsampling: .full, alongside: { JPEGPlanesEncoder(options: EncodingOptions(quality: 95), subsampling: .full) })
        for _ in 0..<20 {
            #expect(throws: PhotoError.truncated(.jpeg, detail: "libjpeg-turbo: Premature end of JPEG file")) {
                try JPEGDecoder().decodeResized(cut, info: info, resize: resize, planar: planar)
            }
        }
    }

    /// Only upright planes of a JPEG output from a JPEG, on two or more threads, are encoded while
    /// they are made: turned photos, a single worker, WebP, pixels and HEIC encode after resizing.
    /// What the plan says is what the decode returns.
    @Test func onlyUprightPlanesWithWorkersAreEncodedAlongside() throws {
        let jpeg = try Fixtures.bytes("sample-photo.jpg")
        func encodesAlongside(_ orientation: ExifOrientation, threads: Int, format: OutputFormat = .jpeg, planes: Bool = true,
                              type: MediaType = .jpeg) throws -> Bool {
            var options = PrepareOptions(maxDimension: 400, encoding: EncodingOptions(format: format), threads: threads)
            options.jpegInYCbCr = planes
            var info = try PhotoPipeline.inspect(jpeg)
            (info.orientationTag, info.type) = (orientation.rawValue, type)
            let plan = PreparePlan(info, options: options, jpegHeader: jpeg)
            guard type == .jpeg else { return plan.planar?.alongside != nil }
            let decoded = try PhotoPipeline.decode(.bytes(jpeg), info: info, plan: plan)
            guard case .encoded = decoded.content else {
                #expect(plan.planar?.alongside == nil, "planned alongside, but the decode gave no JPEG")
                return false
            }
            #expect(plan.planar?.alongside != nil)
            return true
        }
        #expect(try encodesAlongside(.up, threads: 2))
        #expect(try !encodesAlongside(.right, threads: 2))
        #expect(try !encodesAlongside(.up, threads: 1))
        #expect(try !encodesAlongside(.up, threads: 2, format: .webp))
        #expect(try !encodesAlongside(.up, threads: 2, planes: false))
        #expect(try !encodesAlongside(.up, threads: 2, type: .heic))
    }

    /// A byte budget that takes quality 95 below 95 needs 4:2:0: the 4:4:4 planes go through RGB.
    @Test func aBudgetThatLowersTheQualityBelowFullChromaStillFits() throws {
        let bytes = try Fixtures.bytes("sample-photo.jpg")
        let atSeventy = try PhotoPipeline.prepare(bytes, options: PrepareOptions(maxDimension: 400, encoding: EncodingOptions(quality: 70)))
        let options = PrepareOptions(maxDimension: 400, encoding: EncodingOptions(quality: 95), maxBytes: atSeventy.data.count)
        let photo = try PhotoPipeline.prepare(bytes, options: options)
        #expect(photo.data.count <= atSeventy.data.count)
        #expect(photo.quality < JPEGEncoder.fullChromaQuality && photo.quality >= 70)
        #expect(Self.lumaSampling(photo.data).map { [$0.0, $0.1] } == [2, 2])
        #expect(photo.size == atSeventy.size)
    }

    /// A budget only a smaller photo meets: the planes become pixels, resized step by step.
    @Test func aBudgetThatShrinksThePhotoStartsFromThePlanes() throws {
        let bytes = try Fixtures.bytes("sample-photo.jpg")
        let floor = try PhotoPipeline.prepare(bytes, options: PrepareOptions(maxDimension: 800, encoding: EncodingOptions(quality: 40)))
        let budget = floor.data.count * 2 / 3
        let options = PrepareOptions(maxDimension: 800, maxBytes: budget, minQuality: 40, minDimension: 100)
        let photo = try PhotoPipeline.prepare(bytes, options: options)
        #expect(photo.data.count <= budget)
        #expect(photo.quality == 40)
        #expect(photo.size.longEdge < 800)
        let decoded = try PhotoPipeline.decode(photo.data)
        #expect(PixelSize(width: decoded.width, height: decoded.height) == photo.size)
    }
}

@Suite struct PlaneRoundingTests {
    /// Filtered samples (Q6: a level is 64) become bytes rounded to nearest (halves up) and clamped
    /// to 0…255, including the overshoot Lanczos gives at sharp edges.
    @Test func samplesRoundAndClampToBytes() {
        #expect(Self.combined([-20_000, -38, 31, 96, 160, 16_294, 16_346, 30_000]) == [0, 0, 0, 2, 3, 255, 255, 255])
        #expect(Self.combined([0, 64, 1_114, 1_126, 8_192, 12_813, 16_282, 16_320]) == [0, 1, 17, 18, 128, 200, 254, 255])
    }

    /// Two rows at weights ½ and ½, 40 samples: the 16-at-a-time steps and a row padded to 48.
    @Test func rowsAreWeightedPerSample() {
        let a = (0..<40).map { Int16($0 * 6 * 64) }, b = (0..<40).map { Int16((240 - $0 * 6) * 64) }
        #expect(Self.combined(a, b, weights: [8_192, 8_192]) == [UInt8](repeating: 120, count: 40))
        #expect(Self.combined(a, b, weights: [16_384, 0]) == a.map { UInt8($0 / 64) })
        #expect(Self.combined(a, b, a, weights: [4_096, 8_192, 4_096]) == [UInt8](repeating: 120, count: 40))
    }

    /// `pj_resize_combine` over rows of Q6 samples, padded to a multiple of 16.
    static func combined(_ rows: [Int16]..., weights: [Int16] = [16_384]) -> [UInt8] {
        ResampleAccuracyTests.combine(rows, weights: weights, width: rows[0].count, pj_resize_combine)
    }
}
