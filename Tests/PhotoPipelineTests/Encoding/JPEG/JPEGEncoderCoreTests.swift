import CJPEGEncoder
import Foundation
@testable import PhotoPipeline
import Testing

/// The encoder's C core: the transform is JPEG's DCT, the AVX2 variants give the portable ones'
/// floats and files, and pixels become JFIF's YCbCr.
@Suite struct JPEGEncoderCoreTests {
    /// Samples with edges and texture (a different pattern per seed).
    static func block(seed: Int) -> [UInt8] {
        (0..<64).map { i in UInt8(truncatingIfNeeded: (i % 8) * (17 + seed) ^ (i / 8) * (29 + 3 * seed) &+ (i * i * seed) / 11) }
    }

    /// The transform, scaled back, against JPEG's DCT computed exactly (T.81 A.3.3) in doubles.
    @Test func theTransformIsJPEGsDCT() {
        for seed in 0..<20 {
            let samples = Self.block(seed: seed)
            var out = [Float](repeating: 0, count: 64)
            samples.withUnsafeBufferPointer { pq_fdct($0.baseAddress, 8, &out) }
            var worst = 0.0
            for v in 0..<8 {
                for u in 0..<8 {
                    var sum = 0.0
                    for y in 0..<8 {
                        for x in 0..<8 {
                            sum += (Double(samples[y * 8 + x]) - 128) * cos(Double(2 * x + 1) * Double(u) * .pi / 16)
                                * cos(Double(2 * y + 1) * Double(v) * .pi / 16)
                        }
                    }
                    let exact = sum / 4 * (u == 0 ? 1 / 2.0.squareRoot() : 1) * (v == 0 ? 1 / 2.0.squareRoot() : 1)
                    let scaled = Double(out[v * 8 + u]) / (pq_aan_scale(Int32(u)) * pq_aan_scale(Int32(v)))
                    worst = max(worst, abs(scaled - exact))
                }
            }
            #expect(worst < 0.01, "seed \(seed): off by \(worst)")
        }
    }

    @Test("the AVX2 transform gives the portable one's floats", .enabled(if: pq_uses_avx2() != 0, "no AVX2 here: nothing to compare"))
    func avx2TransformMatchesThePortableOne() {
        for seed in 0..<50 {
            let samples = Self.block(seed: seed)
            var fast = [Float](repeating: 0, count: 64), portable = [Float](repeating: 0, count: 64)
            samples.withUnsafeBufferPointer {
                pq_fdct($0.baseAddress, 8, &fast)
                pq_fdct_baseline($0.baseAddress, 8, &portable)
            }
            #expect(fast == portable, "seed \(seed)")
        }
    }

    /// A whole file, from planes with detail everywhere, at several qualities and sizes: the
    /// AVX2 kernels and the portable ones write the same bytes.
    @Test("the AVX2 encoder writes the portable one's files", .enabled(if: pq_uses_avx2() != 0, "no AVX2 here: nothing to compare"),
          arguments: [(640, 480, 85), (333, 101, 60), (1024, 768, 95), (17, 9, 100)])
    func avx2FilesMatchThePortableOnes(width: Int, height: Int, quality: Int) throws {
        let size = PixelSize(width: width, height: height)
        let subsampling = JPEGEncoder.subsampling(quality: quality)
        let sizes = YCbCrImage.sampledSizes(size, subsampling: subsampling)
        let planes = JPEGPartsTests.planes(sizes)
        func encode(baseline: Bool) throws -> [UInt8] {
            let writer = try JPEGWriter(size: size, subsampling: subsampling, options: EncodingOptions(quality: quality),
                                        baselineKernels: baseline)
            try JPEGPartsTests.withPointers(planes) { pointers in
                let parts = [0..<writer.splitRow, writer.splitRow..<writer.imcuRows].filter { !$0.isEmpty }
                for rows in parts { try writer.encode(rows: rows, planes: pointers.map { UnsafePointer($0) }, sizes: sizes) }
            }
            return try writer.finish(on: nil)
        }
        let same = try encode(baseline: false) == encode(baseline: true)
        #expect(same, "\(size) q\(quality)")
    }

    /// Pixels become JFIF's YCbCr (T.871, 7): luma and the 2 × 2 means of chroma, each within
    /// half a level of the exact values.
    @Test func pixelsBecomeJFIFYCbCr() {
        let width = 7, height = 5
        let pixels = (0..<(width * height * 3)).map { UInt8(truncatingIfNeeded: $0 * 37 &+ $0 / 3 * 91) }
        let sizes = YCbCrImage.sampledSizes(PixelSize(width: width, height: height), subsampling: .half)
        var luma = [UInt8](repeating: 0, count: sizes[0].pixelCount)
        var blue = [UInt8](repeating: 0, count: sizes[1].pixelCount), red = blue
        luma.withUnsafeMutableBufferPointer { y in
            blue.withUnsafeMutableBufferPointer { cb in
                red.withUnsafeMutableBufferPointer { cr in
                    var pointers: [UnsafeMutablePointer<UInt8>?] = [y.baseAddress, cb.baseAddress, cr.baseAddress]
                    pq_rgb_to_planes(pixels, width * 3, Int32(width), Int32(height), 3, 1, &pointers)
                }
            }
        }
        let planes = [luma, blue, red]
        func rgb(_ x: Int, _ y: Int) -> (Double, Double, Double) {
            let i = (min(y, height - 1) * width + min(x, width - 1)) * 3
            return (Double(pixels[i]), Double(pixels[i + 1]), Double(pixels[i + 2]))
        }
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = rgb(x, y)
                #expect(abs(Double(planes[0][y * width + x]) - (0.299 * r + 0.587 * g + 0.114 * b)) <= 0.5 + 1e-9)
            }
        }
        for cy in 0..<sizes[1].height {
            for cx in 0..<sizes[1].width {
                var cb = 0.0, cr = 0.0
                for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                    let (r, g, b) = rgb(2 * cx + dx, 2 * cy + dy)
                    cb += 128 - 0.168736 * r - 0.331264 * g + 0.5 * b
                    cr += 128 + 0.5 * r - 0.418688 * g - 0.081312 * b
                }
                #expect(abs(Double(planes[1][cy * sizes[1].width + cx]) - cb / 4) <= 0.5 + 1e-3, "Cb at \(cx), \(cy)")
                #expect(abs(Double(planes[2][cy * sizes[1].width + cx]) - cr / 4) <= 0.5 + 1e-3, "Cr at \(cx), \(cy)")
            }
        }
    }
}
