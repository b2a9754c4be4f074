import Foundation
@testable import PhotoPipeline
import Testing

/// `--quality auto` on the corpus photos, judged on the whole picture: each output's butteraugli
/// distance from the resized photo (the same prepare written losslessly as PNG) lands at its
/// target. The choice scores a sample of tiles, which reads within about 10 % of the whole
/// picture; the bounds are the target's 0.75–1.08 times, what the corpus photos gave at 1024 and
/// 2048 px for targets 0.8–1.5 (docs/performance.md), unless the range's top was not enough.
@Suite struct AutoQualityCorpusTests {
    static let photos = [
        "canon-ixus40_1704x2272.jpg", "canon-sx60_2048x1536_o6.jpg", "iphone6_3264x2448.jpg", "nokia83_4608x1976.jpg",
        "olympus-ep3_4032x3024.jpg", "sony-rx100m4-crop_4032x3024_o6.jpg", "sony-rx100m4_5640x3172_q100.jpg",
        "minolta-z5-wood_2560x1920.webp",
    ]
    // Not the corpus's transparent PNG: a JPEG's alpha is composited while the picture is
    // resized, a PNG keeps it, so no lossless output of the pipeline is the reference it needs.

    @Test(.enabled(if: Corpus.isAvailable, "set PETSPOT_CORPUS to the shared corpus"), arguments: photos, [2048, 1024])
    func theWholePictureLandsAtTheTarget(photo: String, size: Int) throws {
        let bytes = try Corpus.bytes("photos/" + photo)
        let auto = AutoQuality()
        let prepared = try PhotoPipeline.prepare(bytes, options: PrepareOptions(maxDimension: size, autoQuality: auto))
        let reference = try PhotoPipeline.prepare(bytes, options: PrepareOptions(maxDimension: size, encoding: EncodingOptions(format: .png)))
        let decoded = try PhotoPipeline.decode(prepared.data).flattened(onto: .white)
        let distance = try #require(try Butteraugli.distance(try PhotoPipeline.decode(reference.data).flattened(onto: .white), decoded))
        let said = "\(photo) at \(size): q\(prepared.quality), \(prepared.data.count) bytes, butteraugli \(distance) (sample \(prepared.estimatedDistance ?? -1))"
        #expect(distance <= auto.targetDistance * 1.08, "\(said)")
        if prepared.quality < auto.qualities.upperBound {
            #expect(distance >= auto.targetDistance * 0.75, "more bytes than the target needs: \(said)")
        }
    }

    /// The quality chosen follows what the photo needs: over the corpus they differ, where one
    /// fixed number gives every photo the same.
    @Test(.enabled(if: Corpus.isAvailable, "set PETSPOT_CORPUS to the shared corpus"))
    func photosGetDifferentQualities() throws {
        var qualities: Set<Int> = []
        for photo in Self.photos.prefix(7) {
            let prepared = try PhotoPipeline.prepare(try Corpus.bytes("photos/" + photo),
                                                     options: PrepareOptions(maxDimension: 1024, autoQuality: AutoQuality()))
            qualities.insert(prepared.quality)
        }
        #expect(qualities.count >= 3, "\(qualities)")
    }

    /// Too small a picture to score keeps the quality asked for; lossless output has none to choose.
    @Test func whatCannotBeScoredKeepsTheQualityGiven() throws {
        let tiny = PixelBuffer(width: 5, height: 4, channels: 3, pixels: [UInt8](repeating: 120, count: 60))
        let png = try ImageEncoders.encode(tiny, options: EncodingOptions(format: .png), iccProfile: nil, background: .white)
        let prepared = try PhotoPipeline.prepare(png, options: PrepareOptions(encoding: EncodingOptions(quality: 77), autoQuality: AutoQuality()))
        #expect(prepared.quality == 77)
        #expect(prepared.estimatedDistance == nil)
    }
}
