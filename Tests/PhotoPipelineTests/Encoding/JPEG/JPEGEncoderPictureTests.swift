import Foundation
@testable import PhotoPipeline
import Testing

/// What our JPEG encoder's files look like once decoded, against the pixels it was given: real
/// photo content (a crop of a corpus photo at its own resolution, so no resampler is involved),
/// encoded, decoded by libjpeg-turbo and compared by SSIM (luma) and the mean difference of R, G
/// and B (which sees the chroma). The bounds are what this encoder gives at each quality less a margin
/// (SSIM 0.01–0.015, a quarter of the difference): a coarser table, levels rounded the wrong way
/// or a misplaced block fall below them.
@Suite struct JPEGEncoderPictureTests {
    /// (photo, quality, least SSIM, largest mean difference in levels).
    static let cases: [(String, Int, Double, Double)] = [
        // The noisy 4 MP compact (a smooth middle, noise on top): the dead zone's hardest case.
        ("canon-ixus40_1704x2272.jpg", 60, 0.94, 2.4),
        ("canon-ixus40_1704x2272.jpg", 85, 0.96, 1.9),
        ("canon-ixus40_1704x2272.jpg", 95, 0.978, 1.15),
        // Fine detail from an 18 MP sensor stored at quality 100.
        ("sony-rx100m4_5640x3172_q100.jpg", 60, 0.945, 6.2),
        ("sony-rx100m4_5640x3172_q100.jpg", 85, 0.975, 4.0),
        ("sony-rx100m4_5640x3172_q100.jpg", 95, 0.99, 2.1),
    ]

    /// A `width` × `height` crop from the middle of a corpus photo, decoded at full size.
    static func crop(_ name: String, width: Int, height: Int) throws -> PixelBuffer {
        let whole = try PhotoPipeline.decode(Array(try Data(contentsOf: Corpus.url("photos/" + name))))
        let left = (whole.width - width) / 2, top = (whole.height - height) / 2
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let p = whole.rgba(x: left + x, y: top + y)
                pixels[(y * width + x) * 3 ..< (y * width + x) * 3 + 3] = [p.r, p.g, p.b]
            }
        }
        return PixelBuffer(width: width, height: height, channels: 3, pixels: pixels)
    }

    @Test(.enabled(if: Corpus.isAvailable, "set PETSPOT_CORPUS to the shared corpus"), arguments: cases)
    func theDecodedPictureStaysCloseToItsPixels(photo: String, quality: Int, leastSSIM: Double, largestDifference: Double) throws {
        let original = try Self.crop(photo, width: 520, height: 392)
        let jpeg = try JPEGEncoder(workers: Workers()).encode(original, options: EncodingOptions(quality: quality), iccProfile: nil)
        let decoded = try PhotoPipeline.decode(jpeg)
        let ssim = PixelMetrics.ssim(original, decoded), difference = PixelMetrics.meanAbsoluteDifference(original, decoded)
        #expect(ssim >= leastSSIM, "\(photo) q\(quality): SSIM \(ssim), \(jpeg.count) bytes")
        #expect(difference <= largestDifference, "\(photo) q\(quality): \(difference) levels off on average")
    }

    /// A higher quality number is a better picture and more bytes, all the way up: at 100 from
    /// 4:4:4 the picture is within a level or two of the pixels.
    @Test(.enabled(if: Corpus.isAvailable, "set PETSPOT_CORPUS to the shared corpus"))
    func aHigherQualityIsABetterPicture() throws {
        let original = try Self.crop("canon-ixus40_1704x2272.jpg", width: 264, height: 200)
        var previous: (ssim: Double, bytes: Int)?
        for quality in [20, 40, 60, 75, 85, 90, 95, 100] {
            let jpeg = try JPEGEncoder().encode(original, options: EncodingOptions(quality: quality), iccProfile: nil)
            let decoded = try PhotoPipeline.decode(jpeg)
            let ssim = PixelMetrics.ssim(original, decoded)
            if let previous {
                #expect(ssim > previous.ssim && jpeg.count > previous.bytes,
                        "q\(quality): SSIM \(ssim), \(jpeg.count) bytes after \(previous)")
            }
            previous = (ssim, jpeg.count)
            if quality == 100 {
                #expect(PixelMetrics.meanAbsoluteDifference(original, decoded) <= 1.0, "q100")
            }
        }
    }
}
