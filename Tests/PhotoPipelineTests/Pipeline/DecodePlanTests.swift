import Foundation
@testable import PhotoPipeline
import Testing

/// The plan the pipeline chooses for a photo, from its header, the output and the worker count.
@Suite(.enabled(if: Corpus.isAvailable, "set PETSPOT_CORPUS to the shared corpus"))
struct DecodePlanTests {
    static func plan(_ name: String, threads: Int = 2, maxDimension: Int = 1024, format: OutputFormat = .jpeg,
                     planes: Bool = true) throws -> DecodePlan {
        let bytes = try Corpus.bytes(name)
        let info = try PhotoPipeline.inspect(bytes)
        var options = PrepareOptions(maxDimension: maxDimension, encoding: EncodingOptions(format: format), threads: threads)
        options.jpegInYCbCr = planes
        return PreparePlan(info, options: options, jpegHeader: Array(bytes.prefix(JPEGFileHeader.firstRead))).decode
    }

    @Test func largeJPEGsOnTwoWorkersGetTwoDecompressors() throws {
        // Baseline with restart markers at MCU rows (a camera's and a phone's): two row bands.
        #expect(try Self.plan("photos/olympus-ep3_4032x3024.jpg") == .jpeg(.rowBands))
        #expect(try Self.plan("photos/iphone6_3264x2448.jpg", format: .webp) == .jpeg(.rowBands))
        // Progressive: luma and chroma.
        #expect(try Self.plan("photos/sony-rx100m4_5640x3172_q100.jpg") == .jpeg(.lumaChroma))
    }

    @Test func oneWorkerPixelsOrASmallFileAreOneStream() throws {
        #expect(try Self.plan("photos/olympus-ep3_4032x3024.jpg", threads: 1) == .jpeg(.stream))
        #expect(try Self.plan("photos/olympus-ep3_4032x3024.jpg", format: .png) == .jpeg(.stream))
        #expect(try Self.plan("photos/olympus-ep3_4032x3024.jpg", planes: false) == .jpeg(.stream))
        #expect(try Self.plan("camera-exif/exiforg-nikon-e950.jpg") == .jpeg(.stream))
    }

    @Test func aJPEGAlreadyAtItsSizeIsNotResampled() throws {
        #expect(try Self.plan("camera-exif/exiforg-nikon-e950.jpg", maxDimension: 4000, format: .png) == .jpeg(.exact))
    }

    @Test func otherTypesHaveTheirOwnPlans() throws {
        #expect(try Self.plan("heif/pillowheif-arrow-iphone8plus.heic") == .heif)
        #expect(try Self.plan("heif/gen-harbour-8bit.avif") == .heif)
        #expect(try Self.plan("photos/canon400d-storm_1920x1280_alpha.png") == .whole)
        #expect(try Self.plan("photos/minolta-z5-wood_2560x1920.webp") == .whole)
    }

    /// A progressive file whose segments before the frame header run past the first 64 KiB (a
    /// large comment, ICC profile or XMP) is still split by component when prepared from memory;
    /// a baseline one behind the same padding falls back to one stream, with the same bytes.
    @Test func aFrameHeaderPastTheFirst64KiBStillGetsTheSplit() throws {
        func padded(_ name: String) throws -> [UInt8] {
            let bytes = try Corpus.bytes(name)
            let comment = [UInt8](repeating: 0x20, count: 65_000)
            let segment: [UInt8] = [0xFF, 0xFE, UInt8((comment.count + 2) >> 8), UInt8((comment.count + 2) & 0xFF)] + comment
            return Array(bytes[0..<2]) + segment + segment + Array(bytes[2...])
        }
        var options = PrepareOptions(maxDimension: 64, threads: 2)
        options.twoDecoderMinimumPixels = 0
        for (name, strategy) in [("jpeg-variants/generated-hopper-progressive.jpg", JPEGDecoder.Strategy.lumaChroma),
                                 ("jpeg-variants/generated-hopper-444.jpg", .lumaChroma)] {
            let bytes = try padded(name)
            let info = try PhotoPipeline.inspect(bytes)
            let target = info.storedSize.fitting(longEdge: 64)
            let resize = ResizeRequest(target: target, threads: 2)
            let planar = PlanarOutput(subsampling: .half, twoDecoderMinimumPixels: 0)
            #expect(DecodePlan.choose(info, jpegHeader: Array(bytes.prefix(JPEGFileHeader.firstRead)), resize: resize, planar: planar)
                    == .jpeg(strategy))
            var single = options
            single.twoDecoderMinimumPixels = nil
            #expect(try PhotoPipeline.prepare(bytes, options: options).data == PhotoPipeline.prepare(bytes, options: single).data, "\(name)")
        }
    }
}
