import Foundation
import Testing
@testable import PhotoPipeline

/// All eight EXIF orientations come out upright, checked on pixel positions, and no tag survives.
@Suite struct OrientationTests {
    /// The marker: upright 96×64 with red, green / blue, white quadrants.
    static let quadrants: [(x: Int, y: Int, color: (Int, Int, Int))] = [
        (24, 16, (255, 0, 0)), (72, 16, (0, 255, 0)), (24, 48, (0, 0, 255)), (72, 48, (255, 255, 255)),
    ]

    @Test(arguments: 1...8)
    func markerImageIsUprightForEveryOrientation(_ orientation: Int) throws {
        let bytes = try Fixtures.bytes("exif-orientation-\(orientation).jpg")
        let info = try PhotoPipeline.inspect(bytes)
        #expect(info.orientationTag == orientation)
        #expect(info.storedSize == (orientation >= 5 ? PixelSize(width: 64, height: 96) : PixelSize(width: 96, height: 64)))
        let upright = try PhotoPipeline.decode(bytes)
        #expect(upright.width == 96 && upright.height == 64)
        for q in Self.quadrants {
            #expect(PixelMetrics.isClose(upright, x: q.x, y: q.y, to: q.color), "quadrant at \(q.x),\(q.y): \(upright.rgba(x: q.x, y: q.y))")
        }
    }

    @Test(arguments: 1...8)
    func preparedOutputIsUprightAndCarriesNoOrientationTag(_ orientation: Int) throws {
        let photo = try PhotoPipeline.prepare(try Fixtures.bytes("exif-orientation-\(orientation).jpg"),
                                              options: PrepareOptions(encoding: EncodingOptions(quality: 95)))
        let info = try PhotoPipeline.inspect(photo.data)
        #expect(info.orientationTag == nil)
        let pixels = try PhotoPipeline.decode(photo.data)
        #expect(pixels.width == 96 && pixels.height == 64)
        for q in Self.quadrants {
            #expect(PixelMetrics.isClose(pixels, x: q.x, y: q.y, to: q.color))
        }
    }

    @Test func orientationTransformsAreExactOnSyntheticPixels() {
        // 3×2 image with distinct values; upright(x, y) must read stored per the EXIF definition.
        let stored = PixelBuffer(width: 3, height: 2, channels: 1, pixels: [1, 2, 3, 4, 5, 6])
        #expect(stored.oriented(.upMirrored).pixels == [3, 2, 1, 6, 5, 4])
        #expect(stored.oriented(.down).pixels == [6, 5, 4, 3, 2, 1])
        #expect(stored.oriented(.downMirrored).pixels == [4, 5, 6, 1, 2, 3])
        #expect(stored.oriented(.leftMirrored).pixels == [1, 4, 2, 5, 3, 6])
        #expect(stored.oriented(.right).pixels == [4, 1, 5, 2, 6, 3])
        #expect(stored.oriented(.rightMirrored).pixels == [6, 3, 5, 2, 4, 1])
        #expect(stored.oriented(.left).pixels == [3, 6, 2, 5, 1, 4])
        for orientation in ExifOrientation.allCases where orientation.swapsDimensions {
            #expect(stored.oriented(orientation).width == 2)
        }
    }

    @Test(arguments: [0, 9, 65535])
    func outOfRangeTagsMeanUpright(_ tag: Int) {
        #expect(ExifOrientation(tagValue: tag) == .up)
    }
}

/// The corpus's real photos in every orientation match the upright reference pixel for pixel (±).
@Suite(.enabled(if: Corpus.isAvailable, "set PETSPOT_CORPUS to the shared corpus"))
struct CorpusOrientationTests {
    static let cases: [(String, String)] = (0...8).flatMap { n in
        ["Landscape", "Portrait"].map { ("exif-orientation/\($0)_\(n).jpg", "exif-orientation/\($0)_1.jpg") }
    } + (2...8).map { ("webp/pillow/hopper_orientation_\($0).webp", "webp/pillow/hopper.webp") }

    @Test(arguments: cases)
    func orientedPhotoMatchesTheUprightReference(_ file: String, _ reference: String) throws {
        // Downscaled through the real pipeline (PNG keeps it lossless), then compared.
        let options = PrepareOptions(maxDimension: 300, encoding: EncodingOptions(format: .png))
        let oriented = try PhotoPipeline.decode(try PhotoPipeline.prepare(try Corpus.bytes(file), options: options).data)
        let upright = try PhotoPipeline.decode(try PhotoPipeline.prepare(try Corpus.bytes(reference), options: options).data)
        #expect(oriented.width == upright.width && oriented.height == upright.height)
        let difference = PixelMetrics.meanAbsoluteDifference(oriented, upright)
        #expect(difference < 8, "mean abs difference \(difference)")
    }

    @Test func unrotatedPixelsWouldFailTheComparison() throws {
        // The comparison above can fail: the raw stored pixels of orientation 3 differ a lot.
        let options = PrepareOptions(maxDimension: 300, encoding: EncodingOptions(format: .png))
        let reference = try PhotoPipeline.decode(try PhotoPipeline.prepare(try Corpus.bytes("exif-orientation/Landscape_1.jpg"), options: options).data)
        let rotated = try PhotoPipeline.decode(try PhotoPipeline.prepare(try Corpus.bytes("exif-orientation/Landscape_3.jpg"), options: options).data)
        #expect(PixelMetrics.meanAbsoluteDifference(reference.oriented(.down), rotated) > 30)
    }
}
