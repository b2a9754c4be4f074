/// The filter weights for resizing one plane (one 8-bit sample per pixel), shared by its column bands.
struct PlaneKernel: @unchecked Sendable {
    let source: PixelSize
    let target: PixelSize
    let horizontal: FilterContributions
    let vertical: FilterContributions

    init(source: PixelSize, target: PixelSize, filter: ResamplingFilter) {
        self.source = source
        self.target = target
        horizontal = FilterContributions(inputLength: source.width, outputLength: target.width, filter: filter)
        vertical = FilterContributions(inputLength: source.height, outputLength: target.height, filter: filter)
    }

    /// Ring rows a band keeps: the most any output row reads, plus the four rows filtered at once.
    var ringRows: Int { vertical.stride + 4 }

    /// The source columns output columns `columns` read.
    func sourceSpan(_ columns: Range<Int>) -> Range<Int> {
        guard let last = columns.last else { return 0..<0 }
        return horizontal.starts[columns.lowerBound]..<(horizontal.starts[last] + horizontal.counts[last])
    }
}

/// Resizes one band of output columns of one plane whose rows arrive in order (Y, Cb or Cr straight
/// from the JPEG decoder), keeping only a ring of horizontally filtered rows.
///
/// Four source rows are filtered horizontally at once, one per SIMD lane, so every lane does useful
/// work (interleaved RGB leaves one lane of four idle), and the vertical pass runs eight output
/// samples per step. A plane has a third of an RGB image's samples, a 4:2:0 chroma plane a twelfth.
final class PlaneResizer: @unchecked Sendable {
    private let kernel: PlaneKernel
    private let columns: Range<Int>
    private let output: OrientedDestination
    /// Band width rounded up to whole SIMD8 steps.
    private let paddedWidth: Int
    private let ring: UnsafeMutablePointer<Float>
    /// Source columns of four rows, interleaved: `line[x]` holds column x of rows r…r+3.
    private let line: UnsafeMutablePointer<SIMD4<Float>>
    private let row: UnsafeMutablePointer<UInt8>
    private let rowPointers: UnsafeMutablePointer<UnsafePointer<Float>>
    private var nextSourceRow = 0
    private var nextOutputRow = 0
    /// Told how many output rows are finished, after each batch (a streaming encoder waits on it).
    var onRows: (@Sendable (Int) -> Void)?

    /// - Parameter output: the whole output plane, upright (shared by the bands; each writes only its own columns).
    init(kernel: PlaneKernel, columns: Range<Int>, output: OrientedDestination) {
        self.kernel = kernel
        self.columns = columns
        self.output = output
        paddedWidth = (columns.count + 7) / 8 * 8
        ring = .allocate(capacity: kernel.ringRows * paddedWidth)
        ring.initialize(repeating: 0, count: kernel.ringRows * paddedWidth)
        line = .allocate(capacity: kernel.source.width)
        row = .allocate(capacity: paddedWidth)
        rowPointers = .allocate(capacity: kernel.vertical.stride)
    }

    deinit {
        ring.deallocate()
        line.deallocate()
        row.deallocate()
        rowPointers.deallocate()
    }

    var isComplete: Bool { nextOutputRow == kernel.target.height }

    private func slot(_ sourceRow: Int) -> UnsafeMutablePointer<Float> {
        ring + (sourceRow % kernel.ringRows) * paddedWidth
    }

    /// Takes the next `count` source rows (`stride` bytes apart); rows past the plane's height are ignored.
    func push(_ rows: UnsafePointer<UInt8>, count: Int, stride: Int) {
        let count = min(count, kernel.source.height - nextSourceRow)
        var i = 0
        while i < count {
            let n = min(4, count - i)
            filterRows(rows + i * stride, count: n, stride: stride)
            nextSourceRow += n
            emitReadyRows()
            i += n
        }
    }

    /// Filters `count` (1…4) rows horizontally into their ring slots.
    private func filterRows(_ rows: UnsafePointer<UInt8>, count: Int, stride: Int) {
        let r0 = rows, r1 = rows + min(1, count - 1) * stride
        let r2 = rows + min(2, count - 1) * stride, r3 = rows + min(3, count - 1) * stride
        for x in kernel.sourceSpan(columns) {
            line[x] = SIMD4(Float(r0[x]), Float(r1[x]), Float(r2[x]), Float(r3[x]))
        }
        let first = nextSourceRow
        let s0 = slot(first), s1 = slot(first + min(1, count - 1)), s2 = slot(first + min(2, count - 1)), s3 = slot(first + min(3, count - 1))
        let h = kernel.horizontal
        h.vectorWeights.withUnsafeBufferPointer { weights in
            h.starts.withUnsafeBufferPointer { starts in
                h.counts.withUnsafeBufferPointer { counts in
                    let lower = columns.lowerBound
                    for x in columns {
                        let sum = ResampleKernel.dot(weights.baseAddress! + x * h.stride, line + starts[x], count: counts[x])
                        let o = x - lower
                        // Lanes past `count` repeat the last row; writing them in the same slot is harmless.
                        s3[o] = sum[3]; s2[o] = sum[2]; s1[o] = sum[1]; s0[o] = sum[0]
                    }
                }
            }
        }
    }

    /// Combines and stores every output row whose source rows have all arrived.
    private func emitReadyRows() {
        let before = nextOutputRow
        defer { if nextOutputRow != before, let onRows { onRows(nextOutputRow) } }
        let v = kernel.vertical
        while nextOutputRow < kernel.target.height,
              v.starts[nextOutputRow] + v.counts[nextOutputRow] <= nextSourceRow {
            let y = nextOutputRow
            v.vectorWeights.withUnsafeBufferPointer { all in
                let weights = all.baseAddress! + y * v.stride
                let first = v.starts[y], taps = v.counts[y]
                for k in 0..<taps { rowPointers[k] = UnsafePointer(slot(first + k)) }
                var x = 0
                while x < paddedWidth {
                    var sum = SIMD8<Float>.zero
                    for k in 0..<taps {
                        sum += weights[k][0] * UnsafeRawPointer(rowPointers[k] + x).loadUnaligned(as: SIMD8<Float>.self)
                    }
                    UnsafeMutableRawPointer(row + x).storeBytes(of: Self.bytes(sum), as: SIMD8<UInt8>.self)
                    x += 8
                }
            }
            output.write(row: row, y: y, x: columns.lowerBound, count: columns.count)
            nextOutputRow += 1
        }
    }

    /// Rounds and clamps eight samples to bytes, in integer lanes only (the generic
    /// `clamped`/`pointwiseMin` were not inlined and cost 5% of a prepare): adding 1.5 · 2^23 to a
    /// value below 2^22 in size leaves it, rounded to nearest, in the float's low mantissa bits.
    @inline(__always)
    static func bytes(_ values: SIMD8<Float>) -> SIMD8<UInt8> {
        let magic = SIMD8<Float>(repeating: 12_582_912)
        let rounded = unsafeBitCast(values + magic, to: SIMD8<Int32>.self) &- unsafeBitCast(magic, to: SIMD8<Int32>.self)
        let nonNegative = rounded & ~(rounded &>> 31)
        let clamped = (nonNegative | ((SIMD8(repeating: 255) &- nonNegative) &>> 31)) & SIMD8(repeating: 255)
        return SIMD8<UInt8>(truncatingIfNeeded: clamped)
    }
}

/// The plane resizers of one planar resize, split into column bands and grouped by the worker
/// that runs them: worker `b` gets band `b` of every plane, so each does the same share of work.
struct PlanarResize: @unchecked Sendable {
    struct Band {
        let plane: Int
        let resizer: PlaneResizer
    }

    let workers: [[Band]]

    /// - Parameters:
    ///   - sources: each plane's size as decoded (stored orientation).
    ///   - uprightTargets: each output plane's size, upright.
    ///   - outputs: one buffer per plane of `uprightTargets[c]` samples, valid while resizing.
    init(sources: [PixelSize], uprightTargets: [PixelSize], filter: ResamplingFilter, threads: Int,
         orientation: ExifOrientation, outputs: [UnsafeMutablePointer<UInt8>]) {
        var workers: [[Band]] = []
        var kernels: [PlaneKernel] = []
        for (plane, source) in sources.enumerated() {
            let target = orientation.swapsDimensions ? uprightTargets[plane].transposed : uprightTargets[plane]
            // Cb and Cr share their weights (same sizes); they are computed once.
            let kernel = kernels.first { $0.source == source && $0.target == target }
                ?? PlaneKernel(source: source, target: target, filter: filter)
            kernels.append(kernel)
            let destination = OrientedDestination(stored: target, orientation: orientation, channels: 1, base: outputs[plane])
            let n = max(1, min(threads, target.width / 64))
            for band in 0..<n {
                let columns = (target.width * band / n)..<(target.width * (band + 1) / n)
                if workers.count <= band { workers.append([]) }
                workers[band].append(Band(plane: plane, resizer: PlaneResizer(kernel: kernel, columns: columns, output: destination)))
            }
        }
        self.workers = workers
    }

    var isComplete: Bool { workers.joined().allSatisfy(\.resizer.isComplete) }

    /// Column bands per plane.
    var bandCounts: [Int] {
        (0..<3).map { plane in workers.joined().filter { $0.plane == plane }.count }
    }

    /// Reports every band's finished rows to `encoding`.
    func report(to encoding: StreamedJPEGEncoding) {
        // Worker `index` runs band `index` of each plane.
        for (index, worker) in workers.enumerated() {
            for band in worker {
                let plane = band.plane
                band.resizer.onRows = { rows in encoding.finished(plane: plane, band: index, rows: rows) }
            }
        }
    }
}
