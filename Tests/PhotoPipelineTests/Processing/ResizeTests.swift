import Foundation
import Testing
@testable import PhotoPipeline

/// Fit-to-long-edge sizing, a real low-pass filter (no aliasing), premultiplied alpha.
@Suite struct ResizeTests {
    /// The kernels are the textbook Lanczos windowed sinc, sinc(x) · sinc(x / a) for |x| < a,
    /// although they compute one sine per weight.
    @Test(arguments: ResamplingFilter.allCases)
    func lanczosWeightsAreTheWindowedSinc(_ filter: ResamplingFilter) {
        let a = filter.radius
        func sinc(_ x: Double) -> Double { x == 0 ? 1 : sin(Double.pi * x) / (Double.pi * x) }
        for step in -800...800 {
            let x = Double(step) / 200 + 0.0013
            let expected = abs(x) < a ? sinc(x) * sinc(x / a) : 0
            #expect(abs(filter.weight(x) - expected) < 1e-12, "\(filter) at \(x)")
        }
        #expect(filter.weight(0) == 1)
    }

    @Test(arguments: [
        (PixelSize(width: 4032, height: 3024), 2048, PixelSize(width: 2048, height: 1536)),
        (PixelSize(width: 3024, height: 4032), 2048, PixelSize(width: 1536, height: 2048)),
        (PixelSize(width: 11158, height: 2156), 1024, PixelSize(width: 1024, height: 198)),
        (PixelSize(width: 100, height: 30000), 100, PixelSize(width: 1, height: 100)),
        (PixelSize(width: 640, height: 480), 2048, PixelSize(width: 640, height: 480)),
    ])
    func fittingKeepsAspectAndNeverUpscales(_ source: PixelSize, _ longEdge: Int, _ expected: PixelSize) {
        let fitted = source.fitting(longEdge: longEdge)
        #expect(fitted == expected)
        let exactShort = Double(min(source.width, source.height)) * Double(fitted.longEdge) / Double(source.longEdge)
        #expect(abs(Double(min(fitted.width, fitted.height)) - exactShort) <= 1)
    }

    @Test func onePixelStripesBlurToGrayInsteadOfAliasing() throws {
        let stripes = try PhotoPipeline.decode(try Fixtures.bytes("png-stripes-1px.png"))
        for target in [100, 133, 157] {
            let small = stripes.resized(to: PixelSize(width: target, height: target))
            let values = (0..<target).map { Int(small.rgba(x: $0, y: target / 2).r) }
            // A nearest-neighbour or plain bilinear shrink gives black/white bands; a real filter gives ~mid-gray.
            #expect(values.allSatisfy { abs($0 - 128) <= 24 }, "row at \(target): \(values.prefix(12))")
        }
        let nearest = PixelBuffer(width: 100, height: 1, channels: 3,
                                  pixels: (0..<100).flatMap { x in Array(repeating: stripes.rgba(x: x * 4, y: 0).r, count: 3) })
        #expect(nearest.pixels.allSatisfy { $0 < 10 }, "the stripe pattern does make naive sampling alias")
    }

    @Test func transparentNeighboursLendNoDarkHalo() throws {
        // Opaque red next to fully transparent black: every partly transparent result pixel stays red.
        var pixels: [UInt8] = []
        for y in 0..<64 {
            for x in 0..<64 {
                _ = y
                pixels += x < 32 ? [255, 0, 0, 255] : [0, 0, 0, 0]
            }
        }
        let image = PixelBuffer(width: 64, height: 64, channels: 4, pixels: pixels)
        let small = image.resized(to: PixelSize(width: 20, height: 20))
        var partial = 0
        for x in 0..<20 {
            let p = small.rgba(x: x, y: 10)
            if p.a > 8 {
                #expect(p.r >= 240 && p.g <= 8 && p.b <= 8, "pixel \(x): \(p)")
            }
            if p.a > 8 && p.a < 247 { partial += 1 }
        }
        #expect(partial >= 1, "the edge should be soft, not cut")
    }

    @Test func resizingPreservesFlatColourExactly() {
        let flat = PixelBuffer(width: 300, height: 200, channels: 3, pixels: [UInt8](repeating: 77, count: 300 * 200 * 3))
        let small = flat.resized(to: PixelSize(width: 97, height: 65), threads: 2)
        #expect(small.pixels.allSatisfy { $0 == 77 })
    }

    @Test func threadsDoNotChangeTheResult() {
        let gradient = PixelMetrics.gradient(width: 501, height: 333, alpha: true)
        let one = gradient.resized(to: PixelSize(width: 200, height: 133), threads: 1)
        let four = gradient.resized(to: PixelSize(width: 200, height: 133), threads: 4)
        #expect(one == four)
    }

    @Test func downscaleFollowsTheSourceClosely() {
        let gradient = PixelMetrics.gradient(width: 800, height: 600)
        let small = gradient.resized(to: PixelSize(width: 200, height: 150))
        // A gradient sampled at the centre of each output pixel's footprint.
        var samples: [UInt8] = []
        for y in 0..<150 {
            for x in 0..<200 {
                let start: Int = ((y * 4 + 2) * 800 + x * 4 + 2) * 3
                samples += gradient.pixels[start..<(start + 3)]
            }
        }
        let expected = PixelBuffer(width: 200, height: 150, channels: 3, pixels: samples)
        #expect(PixelMetrics.meanAbsoluteDifference(small, expected) < 1.5)
    }
}
