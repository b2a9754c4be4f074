import CResample
@testable import PhotoPipeline
import Testing

/// The plane resizer's loops work in fixed point (Q14 weights, Q6 rows): the AVX2 loops must give
/// the portable loops' bytes exactly, and both must stay within a level of the exact result.
@Suite struct ResampleAccuracyTests {
    /// Deterministic samples with edges and flat runs (Lanczos overshoots at the edges).
    static func samples(_ count: Int, seed: Int) -> [UInt8] {
        (0..<count).map { i in
            let block = (i / 7 + seed) % 5
            return block == 0 ? 0 : block == 1 ? 255 : UInt8(truncatingIfNeeded: (i &* 37 &+ seed &* 101) ^ (i >> 3))
        }
    }

    /// One horizontal pass of eight rows, by `rows8` (AVX2 or portable), into Q6 rows.
    static func horizontal(_ rows: [[UInt8]], _ kernel: PlaneKernel, columns: Range<Int>,
                           _ rows8: (UnsafePointer<UnsafePointer<UInt8>?>, Int, Int, Int, UnsafeMutablePointer<Int16>,
                                     UnsafePointer<Int16>, Int, UnsafePointer<Int>, Int, Int, Int,
                                     UnsafePointer<UnsafeMutablePointer<Int16>?>) -> Void) -> [[Int16]] {
        let width = kernel.source.width
        let sources = rows.map { row -> UnsafeMutablePointer<UInt8> in
            let p = UnsafeMutablePointer<UInt8>.allocate(capacity: width)
            p.initialize(from: row, count: width)
            return p
        }
        let outputs = (0..<8).map { _ in UnsafeMutablePointer<Int16>.allocate(capacity: columns.count + 16) }
        let pairs = UnsafeMutablePointer<Int16>.allocate(capacity: 16 * (width + 2 * kernel.horizontalQ14.pairs))
        defer { sources.forEach { $0.deallocate() }; outputs.forEach { $0.deallocate() }; pairs.deallocate() }
        let span = kernel.sourceSpan(columns)
        let sourcePointers: [UnsafePointer<UInt8>?] = sources.map { UnsafePointer($0) }
        let outputPointers: [UnsafeMutablePointer<Int16>?] = outputs
        kernel.horizontalQ14.values.withUnsafeBufferPointer { weights in
            kernel.horizontal.starts.withUnsafeBufferPointer { starts in
                rows8(sourcePointers, width, span.lowerBound, span.upperBound, pairs, weights.baseAddress!, kernel.horizontalQ14.stride,
                      starts.baseAddress!, kernel.horizontalQ14.pairs, columns.lowerBound, columns.upperBound, outputPointers)
            }
        }
        return outputs.map { Array(UnsafeBufferPointer(start: $0, count: columns.count)) }
    }

    static func combine(_ rows: [[Int16]], weights: [Int16], width: Int,
                        _ combine: (UnsafePointer<UnsafePointer<Int16>?>, UnsafePointer<Int16>, Int, Int, UnsafeMutablePointer<UInt8>) -> Void)
        -> [UInt8] {
        let padded = (width + 15) / 16 * 16
        let copies = rows.map { row -> UnsafeMutablePointer<Int16> in
            let p = UnsafeMutablePointer<Int16>.allocate(capacity: padded)
            p.initialize(repeating: 0, count: padded)
            p.update(from: row, count: row.count)
            return p
        }
        defer { copies.forEach { $0.deallocate() } }
        var out = [UInt8](repeating: 0, count: padded)
        let pointers: [UnsafePointer<Int16>?] = copies.map { UnsafePointer($0) }
        combine(pointers, weights, rows.count, padded, &out)
        return Array(out.prefix(width))
    }

    @Test("the AVX2 loops give the portable loops' bytes", .enabled(if: pj_resize_uses_avx2() != 0, "no AVX2 here: nothing to compare"),
          arguments: [(4032, 2048), (2016, 1024), (333, 100), (50, 49), (9, 3), (17, 17)])
    func avx2LoopsMatchThePortableOnes(source: Int, target: Int) throws {
        let kernel = PlaneKernel(source: PixelSize(width: source, height: source), target: PixelSize(width: target, height: target),
                                 filter: .lanczos3)
        let rows = (0..<8).map { Self.samples(source, seed: $0) }
        for columns in [0..<target, (target / 3)..<target, 0..<max(1, target / 2)] {
            let fast = Self.horizontal(rows, kernel, columns: columns, pj_resize_rows8)
            let portable = Self.horizontal(rows, kernel, columns: columns, pj_resize_rows8_baseline)
            #expect(fast == portable, "\(source) → \(target), columns \(columns)")
        }
        let filtered = Self.horizontal(rows, kernel, columns: 0..<target, pj_resize_rows8)
        for y in [0, target / 2, target - 1] {
            let taps = kernel.vertical.counts[y], first = kernel.vertical.starts[y]
            let weights = Array(kernel.verticalQ14.values[(y * kernel.verticalQ14.stride)...].prefix(taps))
            let rows = (0..<taps).map { filtered[(first + $0) % 8] }
            #expect(Self.combine(rows, weights: weights, width: target, pj_resize_combine)
                        == Self.combine(rows, weights: weights, width: target, pj_resize_combine_baseline), "row \(y)")
        }
    }

    /// Both passes against the exact (Double) sums of the same filter: never more than one level
    /// off, and a flat area stays exactly flat (each sample's weights sum to exactly 1 << 14).
    @Test(arguments: [(4032, 2048), (3264, 2048), (3024, 768), (640, 480), (101, 100)])
    func fixedPointStaysWithinALevelOfTheExactSums(source: Int, target: Int) {
        let kernel = PlaneKernel(source: PixelSize(width: source, height: 8), target: PixelSize(width: target, height: 8),
                                 filter: .lanczos3)
        let rows = (0..<8).map { Self.samples(source, seed: $0 * 3) }
        let filtered = Self.horizontal(rows, kernel, columns: 0..<target, pj_resize_rows8)
        let h = kernel.horizontal
        var worst = 0.0
        for r in 0..<8 {
            for x in 0..<target {
                var exact = 0.0
                for k in 0..<h.counts[x] { exact += Double(h.weights[x * h.stride + k]) * Double(rows[r][h.starts[x] + k]) }
                worst = max(worst, abs(Double(filtered[r][x]) / 64 - exact))
            }
        }
        #expect(worst <= 1, "\(source) → \(target): \(worst) levels off")
        let flat = Self.horizontal(Array(repeating: [UInt8](repeating: 77, count: source), count: 8), kernel, columns: 0..<target,
                                   pj_resize_rows8)
        #expect(flat.allSatisfy { $0.allSatisfy { $0 == 77 * 64 } })
        // Vertically: eight rows of 77 · 64 weighted by any row's weights give 77 again.
        let taps = min(8, kernel.horizontal.counts[target / 2])
        var weights = Array(kernel.horizontalQ14.values[(target / 2 * kernel.horizontalQ14.stride)...].prefix(taps))
        weights[0] += Int16(16_384 - weights.reduce(0) { $0 + Int($1) })
        #expect(Self.combine(Array(repeating: [Int16](repeating: 77 * 64, count: 40), count: taps), weights: weights, width: 40,
                             pj_resize_combine) == [UInt8](repeating: 77, count: 40))
    }

    /// Weights copied from a sample a period back (when the scale repeats exactly in binary) are
    /// the weights computed afresh, bit for bit, in float and in Q14; and scales without such a
    /// period are computed throughout.
    @Test(arguments: [(4032, 2048), (3024, 1536), (3264, 2048), (2448, 1536), (2016, 1024), (3024, 768), (100, 50),
                      (4000, 1365), (640, 1024), (17, 3)])
    func weightsCopiedAPeriodBackAreTheComputedOnes(input: Int, output: Int) {
        for filter in ResamplingFilter.allCases {
            let copied = FilterContributions(inputLength: input, outputLength: output, filter: filter)
            let computed = FilterContributions(inputLength: input, outputLength: output, filter: filter, reusePeriod: false)
            #expect(computed.period == 0)
            #expect(copied.starts == computed.starts && copied.counts == computed.counts, "\(input) → \(output) \(filter)")
            #expect(copied.weights.map(\.bitPattern) == computed.weights.map(\.bitPattern), "\(input) → \(output) \(filter)")
            #expect(FixedPointWeights(copied).values == FixedPointWeights(computed).values, "\(input) → \(output) \(filter)")
        }
        // The photos' scales repeat, and are copied: 4032 → 2048 every 32 samples, all but the
        // first period and the edges.
        let photo = FilterContributions(inputLength: 4032, outputLength: 2048, filter: .lanczos3)
        #expect(photo.period == 32 && photo.copied > 2048 - 64)
    }
}
