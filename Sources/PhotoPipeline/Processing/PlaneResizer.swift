internal import CResample

/// The filter weights for resizing one plane (one 8-bit sample per pixel), shared by its column bands.
struct PlaneKernel: @unchecked Sendable {
    let source: PixelSize
    let target: PixelSize
    let horizontal: FilterContributions
    let vertical: FilterContributions
    /// The weights in fixed point (``FixedPointWeights``), as the C loops read them.
    let horizontalQ14: FixedPointWeights
    let verticalQ14: FixedPointWeights

    init(source: PixelSize, target: PixelSize, filter: ResamplingFilter) {
        self.source = source
        self.target = target
        horizontal = FilterContributions(inputLength: source.width, outputLength: target.width, filter: filter)
        vertical = FilterContributions(inputLength: source.height, outputLength: target.height, filter: filter)
        horizontalQ14 = FixedPointWeights(horizontal)
        verticalQ14 = FixedPointWeights(vertical)
    }

    /// One kernel per plane, from each plane's decoded size (stored orientation) to its upright
    /// target turned back to stored orientation. Cb and Cr share their weights (same sizes): they
    /// are computed once.
    static func forPlanes(sources: [PixelSize], uprightTargets: [PixelSize], orientation: ExifOrientation,
                          filter: ResamplingFilter) -> [PlaneKernel] {
        var kernels: [PlaneKernel] = []
        for (plane, source) in sources.enumerated() {
            let target = orientation.swapsDimensions ? uprightTargets[plane].transposed : uprightTargets[plane]
            kernels.append(kernels.first { $0.source == source && $0.target == target }
                ?? PlaneKernel(source: source, target: target, filter: filter))
        }
        return kernels
    }

    /// Ring rows a band keeps: the most any output row reads, plus the eight rows filtered at once.
    var ringRows: Int { vertical.stride + PlaneResizer.rowsAtOnce }

    /// The source columns output columns `columns` read.
    func sourceSpan(_ columns: Range<Int>) -> Range<Int> {
        guard let last = columns.last else { return 0..<0 }
        return horizontal.starts[columns.lowerBound]..<(horizontal.starts[last] + horizontal.counts[last])
    }
}

/// Resizes one band of output columns of one plane whose rows arrive in order (Y, Cb or Cr straight
/// from the JPEG decoder), keeping only a ring of horizontally filtered rows.
///
/// Eight source rows are filtered horizontally at once, one per 32-bit lane of a pair of taps, so
/// one multiply-add does sixteen (integers: the float loops were load-bound, a weight and a sample
/// loaded per eight products), and the vertical pass runs 16 output samples per step, a pair of
/// rows per multiply-add. A plane has a third of an RGB image's samples, a 4:2:0 chroma plane a
/// twelfth. The two inner loops are C (`CResample`), built for AVX2 and for any CPU, picked on
/// first call: Swift's SIMD types compile for the baseline only.
final class PlaneResizer: @unchecked Sendable {
    private let kernel: PlaneKernel
    private let columns: Range<Int>
    /// The output rows this resizer makes (all of them, or one row band's).
    private let rows: Range<Int>
    private let output: OrientedDestination
    /// Band width rounded up to whole 16-sample steps.
    private let paddedWidth: Int
    /// Horizontally filtered rows (Q6).
    private let ring: UnsafeMutablePointer<Int16>
    /// Pairs of neighbouring columns of the eight rows being filtered (see `pj_resize_rows8`).
    private let pairs: UnsafeMutablePointer<Int16>
    private let row: UnsafeMutablePointer<UInt8>
    private let rowPointers: UnsafeMutablePointer<UnsafePointer<Int16>?>
    /// The eight rows being filtered, and the ring slots they go to.
    private let sourceRows: UnsafeMutablePointer<UnsafePointer<UInt8>?>
    private let slots: UnsafeMutablePointer<UnsafeMutablePointer<Int16>?>
    private var nextSourceRow = 0
    private var nextOutputRow = 0
    /// Told how many output rows are finished, after each batch (a streaming encoder waits on it).
    var onRows: (@Sendable (Int) -> Void)?

    /// - Parameters:
    ///   - output: the whole output plane, upright (shared by the bands; each writes only its own part).
    ///   - rows: the output rows to make (stored orientation); by default all.
    ///   - firstSourceRow: the source row the first ``push(_:count:stride:)`` delivers; at most
    ///     the first row `rows` read.
    init(kernel: PlaneKernel, columns: Range<Int>, output: OrientedDestination, rows: Range<Int>? = nil, firstSourceRow: Int = 0) {
        self.kernel = kernel
        self.columns = columns
        self.rows = rows ?? 0..<kernel.target.height
        self.output = output
        nextSourceRow = firstSourceRow
        nextOutputRow = self.rows.lowerBound
        precondition(self.rows.isEmpty || kernel.vertical.starts[self.rows.lowerBound] >= firstSourceRow,
                     "output row \(self.rows.lowerBound) reads source rows above \(firstSourceRow)")
        paddedWidth = (columns.count + 15) / 16 * 16
        ring = .allocate(capacity: kernel.ringRows * paddedWidth)
        ring.initialize(repeating: 0, count: kernel.ringRows * paddedWidth)
        pairs = .allocate(capacity: 16 * (kernel.source.width + 2 * kernel.horizontalQ14.pairs))
        row = .allocate(capacity: paddedWidth)
        rowPointers = .allocate(capacity: kernel.vertical.stride)
        sourceRows = .allocate(capacity: Self.rowsAtOnce)
        slots = .allocate(capacity: Self.rowsAtOnce)
    }

    deinit {
        ring.deallocate()
        pairs.deallocate()
        row.deallocate()
        rowPointers.deallocate()
        sourceRows.deallocate()
        slots.deallocate()
    }

    /// Source rows filtered horizontally in one call.
    static let rowsAtOnce = 8

    var isComplete: Bool { nextOutputRow == rows.upperBound }

    private func slot(_ sourceRow: Int) -> UnsafeMutablePointer<Int16> {
        ring + (sourceRow % kernel.ringRows) * paddedWidth
    }

    /// Takes the next `count` source rows (`stride` bytes apart); rows past the plane's height are ignored.
    func push(_ rows: UnsafePointer<UInt8>, count: Int, stride: Int) {
        let count = min(count, kernel.source.height - nextSourceRow)
        var i = 0
        while i < count {
            let n = min(Self.rowsAtOnce, count - i)
            filterRows(rows + i * stride, count: n, stride: stride)
            nextSourceRow += n
            emitReadyRows()
            i += n
        }
    }

    /// Filters `count` (1…8) rows horizontally into their ring slots.
    private func filterRows(_ rows: UnsafePointer<UInt8>, count: Int, stride: Int) {
        // Lanes past `count` repeat the last row into its own slot; harmless.
        for r in 0..<Self.rowsAtOnce {
            sourceRows[r] = rows + min(r, count - 1) * stride
            slots[r] = slot(nextSourceRow + min(r, count - 1))
        }
        let span = kernel.sourceSpan(columns)
        let h = kernel.horizontalQ14
        h.values.withUnsafeBufferPointer { weights in
            kernel.horizontal.starts.withUnsafeBufferPointer { starts in
                pj_resize_rows8(sourceRows, kernel.source.width, span.lowerBound, span.upperBound, pairs, weights.baseAddress,
                                h.stride, starts.baseAddress, h.pairs, columns.lowerBound, columns.upperBound, slots)
            }
        }
    }

    /// Combines and stores every output row whose source rows have all arrived.
    private func emitReadyRows() {
        let before = nextOutputRow
        defer { if nextOutputRow != before, let onRows { onRows(nextOutputRow) } }
        let v = kernel.vertical
        while nextOutputRow < rows.upperBound,
              v.starts[nextOutputRow] + v.counts[nextOutputRow] <= nextSourceRow {
            let y = nextOutputRow
            kernel.verticalQ14.values.withUnsafeBufferPointer { all in
                let first = v.starts[y], taps = v.counts[y]
                for k in 0..<taps { rowPointers[k] = UnsafePointer(slot(first + k)) }
                pj_resize_combine(rowPointers, all.baseAddress! + y * kernel.verticalQ14.stride, taps, paddedWidth, row)
            }
            output.write(row: row, y: y, x: columns.lowerBound, count: columns.count)
            nextOutputRow += 1
        }
    }
}

/// The plane resizers of one planar resize, split into column bands and grouped by the job that
/// runs them: job `b` gets band `b` of every plane, so each does the same share of work.
struct PlanarResize: @unchecked Sendable {
    struct Band {
        let plane: Int
        let resizer: PlaneResizer
    }

    let jobs: [[Band]]

    /// - Parameters:
    ///   - sources: each plane's size as decoded (stored orientation).
    ///   - uprightTargets: each output plane's size, upright.
    ///   - outputs: one buffer per plane of `uprightTargets[c]` samples, valid while resizing.
    init(sources: [PixelSize], uprightTargets: [PixelSize], filter: ResamplingFilter, threads: Int,
         orientation: ExifOrientation, outputs: [UnsafeMutablePointer<UInt8>]) {
        var jobs: [[Band]] = []
        let kernels = PlaneKernel.forPlanes(sources: sources, uprightTargets: uprightTargets, orientation: orientation, filter: filter)
        for (plane, kernel) in kernels.enumerated() {
            let target = kernel.target
            let destination = OrientedDestination(stored: target, orientation: orientation, channels: 1, base: outputs[plane])
            let n = max(1, min(threads, target.width / 64))
            for band in 0..<n {
                let columns = (target.width * band / n)..<(target.width * (band + 1) / n)
                if jobs.count <= band { jobs.append([]) }
                jobs[band].append(Band(plane: plane, resizer: PlaneResizer(kernel: kernel, columns: columns, output: destination)))
            }
        }
        self.jobs = jobs
    }

    var isComplete: Bool { jobs.joined().allSatisfy(\.resizer.isComplete) }

    /// Column bands per plane.
    var bandCounts: [Int] {
        (0..<3).map { plane in jobs.joined().filter { $0.plane == plane }.count }
    }

    /// Opens `sink` on `planes` and reports every band's finished rows to it (writer `b` of a plane
    /// is its column band `b`); the sink's own work runs on `workers`.
    func report(to sink: any PlaneRowSink, planes: [UnsafeMutablePointer<UInt8>], sizes: [PixelSize],
                on workers: Workers) throws(PhotoError) {
        try sink.open(planes: planes, sizes: sizes, writers: .columnBands(bandCounts), on: workers)
        // Job `index` runs band `index` of each plane.
        for (index, job) in jobs.enumerated() {
            for band in job {
                let plane = band.plane
                band.resizer.onRows = { rows in sink.finished(plane: plane, writer: index, rows: rows) }
            }
        }
    }
}
