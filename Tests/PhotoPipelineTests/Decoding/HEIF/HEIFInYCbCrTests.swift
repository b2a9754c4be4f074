import Foundation
import Testing
@testable import PhotoPipeline

/// HEIC and AVIF straight into YCbCr planes (``HEIFPlanarDecoder``): the same picture as libheif's RGB path,
/// taken for the files it is meant for, declined for the rest, and never a different error.
@Suite(.enabled(if: Corpus.isAvailable, "set PETSPOT_CORPUS to the shared corpus"))
struct HEIFInYCbCrTests {
    static let okFiles = HEIFCorpus.expectations.filter(\.isOK).map(\.path)
    static let failingFiles = HEIFCorpus.expectations.filter { !$0.isOK }

    /// The planar path's resized picture against the RGB path's (libheif's pixels, resized), before
    /// either is encoded, at 2048 and 512 px: same size, luma SSIM ≥ 0.995. (Resizing luma rather
    /// than R, G and B, and libheif's integer colour conversion, make them differ by rounding.)
    @Test(arguments: okFiles)
    func planesGiveThePictureTheRGBPathGives(_ path: String) throws {
        let bytes = try Corpus.bytes(path)
        let info = try PhotoPipeline.inspect(bytes)
        guard [.heic, .heif, .avif].contains(info.type), !info.hasAlpha, info.encodingSummary.contains("8-bit") else { return }
        for size in [2048, 512] {
            let target = info.storedSize.fitting(longEdge: size)
            let resize = ResizeRequest(target: target, threads: 2)
            // Files declined here are listed in thePlanarPathIsTakenForTheCommonHEICOnly.
            guard let planar = HEIFPlanarDecoder(bytes).decodeResized(info: info, resize: resize, subsampling: .full) else {
                print("planar path declined: \(path)")
                return
            }
            let fromPlanes = try planar.rgb()
            let rgb = try PhotoPipeline.decode(bytes).resized(to: target, filter: .lanczos3, threads: 2)
            #expect(fromPlanes.width == rgb.width && fromPlanes.height == rgb.height)
            let score = PixelMetrics.ssim(fromPlanes, rgb)
            #expect(score >= 0.995, "\(path) → \(size) px: SSIM \(score)")
        }
    }

    /// Which files take the planar path: the 8-bit 4:2:0 HEVC and AV1 ones, single or in a grid, with
    /// any irot/imir; alpha, 10-bit and damaged files go through libheif.
    @Test func thePlanarPathIsTakenForTheCommonHEICAndAVIFOnly() throws {
        let planar = ["pillowheif-arrow-iphone8plus.heic", "gen-painting-o2-imir-exif2.heic", "gen-painting-o3-irot2-exif3.heic",
                      "gen-painting-o4-imir-exif4.heic", "gen-painting-o5-irot3-imir-exif5.heic", "gen-painting-o6-irot3-exif6.heic",
                      "gen-painting-o7-irot3-imir-exif7.heic", "gen-painting-o8-irot1-noexif.heic", "gen-lamp-grid512-irot3-exif6.heic",
                      "pillowheif-transform_mismatch_thumbnail.heic", "gen-harbour-8bit.avif"]
        let declined = ["gen-storm-alpha.heic", "gen-harbour-10bit.heic", "gen-wisteria-10bit.avif",
                        "gen-lamp-grid-truncated.heic", "pillowheif-truncated.heic", "pillowheif-corrupted.heic"]
        for file in planar + declined {
            let bytes = try Corpus.bytes("heif/" + file)
            let took = ((try? Self.planarDecode(bytes)) ?? nil) != nil
            #expect(took == planar.contains(file), "\(file): planar path \(took ? "taken" : "declined")")
        }
    }

    /// A damaged file is declined by the planar path and fails in prepare exactly as it does through
    /// libheif (same error code and message).
    @Test(arguments: failingFiles)
    func aFailingFileFailsAsThroughLibheif(_ expected: HEIFCorpus.Expectation) throws {
        let bytes = try Corpus.bytes(expected.path)
        func failure(_ options: PrepareOptions) -> String {
            do {
                _ = try PhotoPipeline.prepare(bytes, options: options)
                return "prepared"
            } catch {
                return "\(error.code): \(error)"
            }
        }
        let planar = failure(PrepareOptions(maxDimension: 512, threads: 2))
        #expect(planar == failure(PrepareOptions(maxDimension: 512, threads: 2).resizingRGB))
        #expect(planar != "prepared")
    }

    /// Each tile decoded by libde265 lands in its place: the iPhone grid (48 tiles, the last column
    /// and row cropped) at full size against libheif's own full decode, pixel by pixel.
    @Test func gridTilesLandInPlace() throws {
        let bytes = try Corpus.bytes("heif/pillowheif-arrow-iphone8plus.heic")
        let info = try PhotoPipeline.inspect(bytes)
        let resize = ResizeRequest(target: info.storedSize, threads: 2)
        guard let planes = HEIFPlanarDecoder(bytes).decodeResized(info: info, resize: resize, subsampling: .full) else {
            Issue.record("the planar path declined the iPhone photo")
            return
        }
        let fromPlanes = try planes.rgb()
        let fromLibheif = try PhotoPipeline.decode(bytes)
        #expect(fromPlanes.width == fromLibheif.width && fromPlanes.height == fromLibheif.height)
        // Both upsample chroma (libheif by repeating, the resizer with Lanczos): close, not identical.
        let mean = Self.meanDifference(fromPlanes, fromLibheif)
        #expect(mean < 1.5, "mean difference \(mean)")
        #expect(PixelMetrics.ssim(fromPlanes, fromLibheif) >= 0.99)
    }

    /// The item's `colr` nclx decides the conversion, as in libheif: limited range is expanded to
    /// JPEG's full range (same picture as libheif's RGB path); a BT.709 matrix is left to libheif.
    @Test func theNclxRangeAndMatrixAreHonoured() throws {
        let original = try Corpus.bytes("heif/gen-painting-o6-irot3-exif6.heic")
        func patched(matrix: UInt8, fullRange: Bool) -> [UInt8] {
            var bytes = original
            var i = 0
            while i + 15 <= bytes.count {
                if bytes[i..<(i + 8)].elementsEqual(Array("colrnclx".utf8)) {
                    bytes[i + 13] = matrix
                    bytes[i + 14] = fullRange ? 0x80 : 0
                }
                i += 1
            }
            precondition(bytes != original || (matrix == 6 && fullRange), "no nclx colr box found")
            return bytes
        }
        let limited = patched(matrix: 6, fullRange: false)
        let info = try PhotoPipeline.inspect(limited)
        #expect(info.encodingSummary.contains("limited range"), "\(info.encodingSummary)")
        let target = info.storedSize
        let resize = ResizeRequest(target: target, threads: 2)
        guard let planar = HEIFPlanarDecoder(limited).decodeResized(info: info, resize: resize, subsampling: .full) else {
            Issue.record("a limited-range BT.601 file was declined")
            return
        }
        let fromPlanes = try planar.rgb()
        let rgb = try PhotoPipeline.decode(limited)
        let full = try PhotoPipeline.decode(original)
        #expect(PixelMetrics.ssim(fromPlanes, rgb) >= 0.995)
        // The expansion is visible: the limited-range reading differs from the full-range one.
        #expect(Self.meanDifference(fromPlanes, rgb) < 2, "planar vs libheif, both limited")
        #expect(Self.meanDifference(rgb, full) > 3, "libheif, limited vs full")

        let rec709 = patched(matrix: 1, fullRange: true)
        let info709 = try PhotoPipeline.inspect(rec709)
        #expect(HEIFPlanarDecoder(rec709).decodeResized(info: info709, resize: resize, subsampling: .full) == nil)
        let prepared = try PhotoPipeline.prepare(rec709, options: PrepareOptions(maxDimension: 256))
        #expect(try PhotoPipeline.inspect(prepared.data).type == .jpeg)
    }

    static func meanDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        precondition(a.pixels.count == b.pixels.count)
        var total = 0
        for i in 0..<a.pixels.count { total += abs(Int(a.pixels[i]) - Int(b.pixels[i])) }
        return Double(total) / Double(a.pixels.count)
    }

    /// irot/imir in the order given, as one EXIF orientation.
    @Test func rotationsAndMirrorsComposeIntoTheEXIFOrientation() {
        typealias P = HEIFContainer.Property
        let cases: [([P], ExifOrientation)] = [
            ([], .up), ([.irot(quarterTurns: 1)], .left), ([.irot(quarterTurns: 2)], .down), ([.irot(quarterTurns: 3)], .right),
            ([.imir(axis: 1)], .upMirrored), ([.imir(axis: 0)], .downMirrored),
            ([.irot(quarterTurns: 3), .imir(axis: 1)], .leftMirrored), ([.irot(quarterTurns: 1), .imir(axis: 1)], .rightMirrored),
            ([.irot(quarterTurns: 2), .imir(axis: 0)], .upMirrored),
        ]
        for (properties, expected) in cases {
            #expect(HEIFPlanarDecoder.orientation(properties) == expected, "\(properties)")
        }
        #expect(HEIFPlanarDecoder.orientation([.clap]) == nil)
    }

    /// A hostile container never reaches the codec: grids whose tiles do not cover the picture, or
    /// whose descriptor is cut short, are declined.
    @Test func gridDescriptorsAreChecked() {
        #expect(GridDescriptor([0, 0, 5, 7, 0x0F, 0xC0, 0x0B, 0xD0])?.size == PixelSize(width: 4032, height: 3024))
        #expect(GridDescriptor([0, 0, 5, 7, 0x0F, 0xC0, 0x0B]) == nil)
        #expect(GridDescriptor([1, 0, 5, 7, 0x0F, 0xC0, 0x0B, 0xD0]) == nil)
        #expect(GridDescriptor([0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0])?.size == PixelSize(width: 256, height: 512))
    }

    /// A grid that names one tile for every cell holds more coded data than the file: the planar
    /// path declines it before copying anything (libheif still decodes it, tile by tile).
    @Test func aGridRepeatingOneTileIsDeclined() throws {
        var bytes = try Corpus.bytes("heif/pillowheif-arrow-iphone8plus.heic")
        // iref 'dimg' from the grid (item 49) to its 48 tiles: every reference becomes tile 20 (25.7 KB).
        let dimg = try #require((0..<(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual(Array("dimg".utf8)) })
        #expect(bytes[dimg + 4] == 0 && bytes[dimg + 5] == 49 && bytes[dimg + 7] == 48)
        for k in 0..<48 { bytes[dimg + 8 + 2 * k] = 0; bytes[dimg + 9 + 2 * k] = 20 }
        #expect(try Self.planarDecode(bytes) == nil)
        let prepared = try PhotoPipeline.prepare(bytes, options: PrepareOptions(maxDimension: 256, threads: 2))
        #expect(prepared.size.longEdge == 256)
    }

    static func planarDecode(_ bytes: [UInt8]) throws -> DecodedImage? {
        let info = try PhotoPipeline.inspect(bytes)
        let resize = ResizeRequest(target: info.storedSize.fitting(longEdge: 512), threads: 2)
        return HEIFPlanarDecoder(bytes).decodeResized(info: info, resize: resize, subsampling: .half)
    }
}
