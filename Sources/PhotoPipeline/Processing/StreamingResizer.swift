/// Resizes an image whose rows arrive in order (from a streaming decoder), keeping only a ring of
/// filtered rows: the full-size image never exists in memory.
///
/// Each resizer serves one band of output columns, so several can consume the same row stream on
/// different threads. A pushed row is filtered horizontally at once; an output row is emitted as
/// soon as the last source row it needs has arrived.
final class StreamingResizer: @unchecked Sendable {
    private let kernel: ResampleKernel
    private let scratch: ResampleScratch
    private let columns: Range<Int>
    private let target: PixelSize
    /// The whole output image, upright (shared by the column bands; each writes only its own columns).
    private let output: OrientedDestination
    /// One output row of this band, before it is placed upright (when it is not written in place).
    private let row: UnsafeMutablePointer<UInt8>
    private var nextSourceRow = 0
    private var nextOutputRow = 0

    /// - Parameter output: `target.width * target.height * kernel.channels` bytes, owned by the caller.
    init(kernel: ResampleKernel, target: PixelSize, columns: Range<Int>, output: OrientedDestination) {
        self.kernel = kernel
        self.target = target
        self.columns = columns
        self.output = output
        row = .allocate(capacity: columns.count * kernel.channels)
        scratch = ResampleScratch(kernel, width: columns.count)
    }

    deinit { row.deallocate() }

    /// Takes the next `count` source rows (`stride` bytes apart).
    func push(_ rows: UnsafePointer<UInt8>, count: Int, stride: Int) {
        for i in 0..<count {
            let sourceRow = nextSourceRow
            kernel.filterRow(rows + i * stride, line: scratch.line, into: scratch.slot(sourceRow), columns: columns)
            nextSourceRow += 1
            while nextOutputRow < target.height,
                  kernel.vertical.starts[nextOutputRow] + kernel.vertical.counts[nextOutputRow] <= nextSourceRow {
                scratch.gather(for: nextOutputRow)
                kernel.combine(row: nextOutputRow, rows: scratch.rowPointers, into: scratch.output, width: columns.count)
                if let run = output.contiguousRow(y: nextOutputRow, x: columns.lowerBound) {
                    kernel.store(scratch.output, into: run, width: columns.count)
                } else {
                    kernel.store(scratch.output, into: row, width: columns.count)
                    output.write(row: row, y: nextOutputRow, x: columns.lowerBound, count: columns.count)
                }
                nextOutputRow += 1
            }
        }
    }

    /// Whether every output row has been written.
    var isComplete: Bool { nextOutputRow == target.height }
}

/// The column-band resizers for one streamed resize, all writing into one caller-owned output.
struct StreamingResize: @unchecked Sendable {
    let bands: [StreamingResizer]

    /// Splits the output columns into `bands` bands (at most one per 64 columns).
    /// - Parameter output: `target.width * target.height * channels` bytes, valid while resizing;
    ///   receives the result turned upright by `orientation`.
    init(source: PixelSize, target: PixelSize, channels: Int, filter: ResamplingFilter, bands: Int,
         orientation: ExifOrientation, output: UnsafeMutablePointer<UInt8>) {
        let destination = OrientedDestination(stored: target, orientation: orientation, channels: channels, base: output)
        let kernel = ResampleKernel(source: source, target: target, channels: channels, filter: filter)
        let n = max(1, min(bands, target.width / 64))
        self.bands = (0..<n).map { band in
            StreamingResizer(kernel: kernel, target: target,
                             columns: (target.width * band / n)..<(target.width * (band + 1) / n), output: destination)
        }
    }

    /// Whether every band has written every output row.
    var isComplete: Bool { bands.allSatisfy(\.isComplete) }
}
