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
        let target = info.storedSize.fitting(longEdge: maxDimension)
        let encoding = EncodingOptions(format: format)
        let request = DecodeRequest(minimumLongEdge: Int((Double(target.longEdge) * 1.5).rounded(.up)), target: target,
                                    filter: .lanczos3, threads: threads, planes: planes ? RenderedImage.planes(for: encoding) : nil)
        return DecodePlan.choose(info, jpegHeader: Array(bytes.prefix(JPEGFileHeader.firstRead)), request: request)
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
}
