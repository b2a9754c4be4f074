/// The row operations of a separable resize, shared by the banded and the streaming resizers:
/// load a source row as premultiplied floats, filter it horizontally, combine filtered rows
/// vertically, and store an output row as 8-bit pixels.
struct ResampleKernel: @unchecked Sendable {
    let srcWidth: Int
    let outWidth: Int
    let channels: Int
    let horizontal: FilterContributions
    let vertical: FilterContributions

    init(source: PixelSize, target: PixelSize, channels: Int, filter: ResamplingFilter) {
        srcWidth = source.width
        outWidth = target.width
        self.channels = channels
        horizontal = FilterContributions(inputLength: source.width, outputLength: target.width, filter: filter)
        vertical = FilterContributions(inputLength: source.height, outputLength: target.height, filter: filter)
    }

    /// Rows of horizontally filtered pixels a resizer must keep to produce any output row.
    var ringRows: Int { vertical.stride }

    /// The source pixels output columns `columns` read.
    func sourceSpan(_ columns: Range<Int>) -> Range<Int> {
        guard let last = columns.last else { return 0..<0 }
        return horizontal.starts[columns.lowerBound]..<(horizontal.starts[last] + horizontal.counts[last])
    }

    /// Loads the needed part of `source` (one row of 8-bit pixels) as premultiplied floats into
    /// `line`, then filters it horizontally into `target[columns]` (indexed from the band's start).
    func filterRow(_ source: UnsafePointer<UInt8>, line: UnsafeMutablePointer<SIMD4<Float>>,
                   into target: UnsafeMutablePointer<SIMD4<Float>>, columns: Range<Int>) {
        let span = sourceSpan(columns)
        switch channels {
        case 4:
            for x in span {
                let p = source + x * 4
                let a = Float(p[3])
                let scale = a * (1 / 255)
                line[x] = SIMD4(Float(p[0]) * scale, Float(p[1]) * scale, Float(p[2]) * scale, a)
            }
        case 3:
            for x in span {
                let p = source + x * 3
                line[x] = SIMD4(Float(p[0]), Float(p[1]), Float(p[2]), 0)
            }
        default:
            for x in span { line[x] = SIMD4(repeating: Float(source[x])) }
        }
        horizontal.weights.withUnsafeBufferPointer { weights in
            horizontal.starts.withUnsafeBufferPointer { starts in
                horizontal.counts.withUnsafeBufferPointer { counts in
                    let stride = horizontal.stride
                    for x in columns {
                        target[x - columns.lowerBound] = Self.dot(weights.baseAddress! + x * stride, line + starts[x], count: counts[x])
                    }
                }
            }
        }
    }

    /// `Σ weights[k] · pixels[k]` over `count` taps, in four partial sums: one running sum would make
    /// every addition wait for the one before (the latency chain was most of the resize time).
    @inline(__always)
    static func dot(_ weights: UnsafePointer<Float>, _ pixels: UnsafePointer<SIMD4<Float>>, count: Int) -> SIMD4<Float> {
        var s0 = SIMD4<Float>.zero, s1 = SIMD4<Float>.zero, s2 = SIMD4<Float>.zero, s3 = SIMD4<Float>.zero
        var k = 0
        while k + 4 <= count {
            s0 += weights[k] * pixels[k]; s1 += weights[k + 1] * pixels[k + 1]
            s2 += weights[k + 2] * pixels[k + 2]; s3 += weights[k + 3] * pixels[k + 3]
            k += 4
        }
        while k < count { s0 += weights[k] * pixels[k]; k += 1 }
        return (s0 + s1) + (s2 + s3)
    }

    /// Output row `y` from its filtered source rows (`rows[k]` is source row `vertical.starts[y] + k`),
    /// `width` pixels of one column band.
    func combine(row y: Int, rows: UnsafePointer<UnsafePointer<SIMD4<Float>>>, into output: UnsafeMutablePointer<SIMD4<Float>>,
                 width: Int) {
        let count = vertical.counts[y]
        vertical.weights.withUnsafeBufferPointer { all in
            let weights = all.baseAddress! + y * vertical.stride
            // Four pixels at a time: four independent sums, so the additions do not wait on each other.
            var x = 0
            while x + 4 <= width {
                var s0 = SIMD4<Float>.zero, s1 = SIMD4<Float>.zero, s2 = SIMD4<Float>.zero, s3 = SIMD4<Float>.zero
                for k in 0..<count {
                    let w = weights[k], row = rows[k] + x
                    s0 += w * row[0]; s1 += w * row[1]; s2 += w * row[2]; s3 += w * row[3]
                }
                output[x] = s0; output[x + 1] = s1; output[x + 2] = s2; output[x + 3] = s3
                x += 4
            }
            while x < width {
                var sum = SIMD4<Float>.zero
                for k in 0..<count { sum += weights[k] * rows[k][x] }
                output[x] = sum
                x += 1
            }
        }
    }

    /// Rounds, clamps and (for alpha) un-premultiplies `width` pixels of one output row into `dst`.
    func store(_ acc: UnsafePointer<SIMD4<Float>>, into dst: UnsafeMutablePointer<UInt8>, width: Int) {
        @inline(__always) func byte(_ value: Float) -> UInt8 {
            let v = value + 0.5
            return v <= 0 ? 0 : v >= 255 ? 255 : UInt8(v)
        }
        switch channels {
        case 4:
            for x in 0..<width {
                let v = acc[x]
                let a = v[3]
                let scale: Float = a > 0.5 ? 255 / a : 0
                let p = dst + x * 4
                p[0] = byte(v[0] * scale); p[1] = byte(v[1] * scale); p[2] = byte(v[2] * scale); p[3] = byte(a)
            }
        case 3:
            for x in 0..<width {
                let v = acc[x]
                let p = dst + x * 3
                p[0] = byte(v[0]); p[1] = byte(v[1]); p[2] = byte(v[2])
            }
        default:
            for x in 0..<width { dst[x] = byte(acc[x][0]) }
        }
    }
}

/// Scratch memory for one thread of resizing one column band: a ring of filtered rows and line buffers.
final class ResampleScratch {
    let ring: UnsafeMutablePointer<SIMD4<Float>>
    let line: UnsafeMutablePointer<SIMD4<Float>>
    let output: UnsafeMutablePointer<SIMD4<Float>>
    let rowPointers: UnsafeMutablePointer<UnsafePointer<SIMD4<Float>>>
    /// Which source row each ring slot holds (-1: none).
    var slotRow: [Int]
    private let kernel: ResampleKernel
    /// Width of the column band this scratch serves.
    let width: Int

    init(_ kernel: ResampleKernel, width: Int) {
        self.kernel = kernel
        self.width = width
        let slots = kernel.ringRows
        ring = .allocate(capacity: slots * width)
        line = .allocate(capacity: kernel.srcWidth)
        output = .allocate(capacity: width)
        rowPointers = .allocate(capacity: slots)
        slotRow = [Int](repeating: -1, count: slots)
    }

    deinit {
        ring.deallocate()
        line.deallocate()
        output.deallocate()
        rowPointers.deallocate()
    }

    /// The ring slot of source row `row`.
    func slot(_ row: Int) -> UnsafeMutablePointer<SIMD4<Float>> {
        ring + (row % slotRow.count) * width
    }

    /// Points `rowPointers` at the filtered rows output row `y` needs.
    func gather(for y: Int) {
        let first = kernel.vertical.starts[y]
        for k in 0..<kernel.vertical.counts[y] { rowPointers[k] = UnsafePointer(slot(first + k)) }
    }
}
