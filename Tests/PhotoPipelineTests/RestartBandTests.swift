import Foundation
import Testing
@testable import PhotoPipeline

/// Baseline JPEGs with restart markers at MCU rows are decoded in bands on two cores, to exactly
/// the planes one decompressor gives (issue 23 §1).
@Suite(.enabled(if: Corpus.isAvailable, "set PETSPOT_CORPUS to the shared corpus"))
struct RestartBandTests {
    /// Every corpus JPEG the cut applies to (3-component baseline, interval dividing an MCU row).
    static let cuttable = [
        "photos/olympus-ep3_4032x3024.jpg", "photos/iphone6_3264x2448.jpg", "camera-exif/samsung-SM-G930F-phone.jpg",
        "camera-exif/exiforg-nikon-e950.jpg", "camera-exif/pillow-invalid-exif.jpg", "icc/chromium-red-at-12-oclock-with-color-profile.jpg",
        "jpeg-variants/quirk-pillow-truncated_app14.jpg",
    ]

    static func planes(_ decoded: DecodedImage) -> [[UInt8]] {
        guard case .planes(let image) = decoded.content else { return [] }
        return image.planes
    }

    @Test(arguments: cuttable)
    func bandsGiveTheSinglePlanesByteForByteAtEveryScale(_ name: String) throws {
        let bytes = try Corpus.bytes(name)
        let info = try PhotoPipeline.inspect(bytes)
        let cut = try #require(bytes.withUnsafeBufferPointer { JPEGRestartBands($0, count: 2) }, "\(name) is not cut")
        #expect(cut.bands.count == 2 && cut.rows.reduce(0, +) == info.storedSize.height)
        for scale in [1, 2, 4, 8] {
            let decoded = PixelSize(width: (info.storedSize.width + scale - 1) / scale, height: (info.storedSize.height + scale - 1) / scale)
            // The target the planes are resized to; an exact scale leaves them as decoded.
            var request = DecodeRequest(minimumLongEdge: decoded.longEdge, target: decoded, filter: .lanczos3, threads: 2,
                                        planes: .half)
            // Decoded in bands for certain (the decoder falls back to one stream when bands fail).
            let banded = try #require(bytes.withUnsafeBufferPointer {
                JPEGDecoder().decodeBanded($0, scale: scale, subsampling: .half, request: request)
            }, "\(name) at 1/\(scale) was not decoded in bands")
            request.restartBands = false
            let single = try JPEGDecoder().decodeResized(bytes, info: info, request: request)
            #expect(banded.decodedSize == single.decodedSize)
            let a = Self.planes(banded), b = Self.planes(single)
            #expect(a.count == 3 && a == b, "\(name) at 1/\(scale): the banded planes differ")
        }
    }

    /// The whole prepare, to JPEG (encoded alongside) and WebP: the same bytes with or without bands.
    @Test func preparedPhotosAreTheSameBytes() throws {
        for name in Self.cuttable {
            let bytes = try Corpus.bytes(name)
            for (size, format) in [(2048, OutputFormat.jpeg), (1024, .jpeg), (640, .webp)] {
                var options = PrepareOptions(maxDimension: size, encoding: EncodingOptions(format: format), threads: 2)
                let banded = try PhotoPipeline.prepare(bytes, options: options)
                options.restartBands = false
                let single = try PhotoPipeline.prepare(bytes, options: options)
                #expect(banded.data == single.data, "\(name) → \(size) px \(format)")
            }
        }
    }

    /// Damage is reported as the single decoder reports it: a cut-short or corrupted band falls back.
    @Test func damagedFilesFailAsTheyAlwaysDid() throws {
        let original = try Corpus.bytes("photos/olympus-ep3_4032x3024.jpg")
        var corrupted = original
        for offset in stride(from: original.count / 3, to: original.count * 2 / 3, by: 997) { corrupted[offset] ^= 0x5A }
        for damaged in [Array(original.prefix(original.count * 3 / 4)), corrupted] {
            var options = PrepareOptions(maxDimension: 1024, threads: 2)
            let banded: Result<[UInt8], PhotoError>
            do throws(PhotoError) { banded = .success(try PhotoPipeline.prepare(damaged, options: options).data) } catch { banded = .failure(error) }
            options.restartBands = false
            let single: Result<[UInt8], PhotoError>
            do throws(PhotoError) { single = .success(try PhotoPipeline.prepare(damaged, options: options).data) } catch { single = .failure(error) }
            guard case .failure(let a) = banded, case .failure(let b) = single else {
                Issue.record("a damaged file was prepared: \(banded), \(single)")
                continue
            }
            #expect(a == b)
        }
    }

    /// Renumbered markers: the second band's data starts at RST0 whatever the cut's interval.
    @Test func theSecondBandsMarkersStartAtZero() throws {
        let bytes = try Corpus.bytes("photos/olympus-ep3_4032x3024.jpg")
        let cut = try #require(bytes.withUnsafeBufferPointer { JPEGRestartBands($0, count: 2) })
        let band = cut.bands[1]
        let scan = try #require(JPEGRestartBands.layout(band)).scanData
        var expected = 0, seen = 0
        var offset = scan
        while offset + 1 < band.count {
            if band[offset] == 0xFF, (0xD0...0xD7).contains(band[offset + 1]) {
                #expect(Int(band[offset + 1] - 0xD0) == expected % 8)
                expected += 1
                seen += 1
            }
            offset += band[offset] == 0xFF ? 2 : 1
        }
        #expect(seen == 189 * 63 - 1, "\(seen) markers in the second band")
    }
}
