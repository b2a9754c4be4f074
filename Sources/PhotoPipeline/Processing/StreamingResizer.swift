/// Resizes an image whose rows arrive in order (from a streaming decoder), keeping only a ring of
/// filtered rows: the full-size image never exists in memory.
///
/// Each pushed row is filtered horizontally at once; an output row is emitted as soon as the last
/// source row it needs has arrived.
final class StreamingResizer {
    private let kernel: ResampleKernel
    private let scratch: ResampleScratch
    private let target: PixelSize
    private var output: [UInt8]
    private var nextSourceRow = 0
    private var nextOutputRow = 0

    init(source: PixelSize, target: PixelSize, channels: Int, filter: ResamplingFilter) {
        kernel = ResampleKernel(source: source, target: target, channels: channels, filter: filter)
        scratch = ResampleScratch(kernel)
        self.target = target
        output = [UInt8](repeating: 0, count: target.width * target.height * channels)
    }

    /// Takes the next `count` source rows (`stride` bytes apart).
    func push(_ rows: UnsafePointer<UInt8>, count: Int, stride: Int) {
        let dstRowBytes = kernel.outWidth * kernel.channels
        output.withUnsafeMutableBufferPointer { dst in
            for i in 0..<count {
                let sourceRow = nextSourceRow
                kernel.filterRow(rows + i * stride, line: scratch.line, into: scratch.slot(sourceRow))
                nextSourceRow += 1
                while nextOutputRow < target.height,
                      kernel.vertical.starts[nextOutputRow] + kernel.vertical.counts[nextOutputRow] <= nextSourceRow {
                    scratch.gather(for: nextOutputRow)
                    kernel.combine(row: nextOutputRow, rows: scratch.rowPointers, into: scratch.output)
                    kernel.store(scratch.output, into: dst.baseAddress! + nextOutputRow * dstRowBytes)
                    nextOutputRow += 1
                }
            }
        }
    }

    /// The resized image; every source row must have been pushed.
    func finish() -> PixelBuffer {
        precondition(nextOutputRow == target.height, "not every source row was pushed")
        return PixelBuffer(width: target.width, height: target.height, channels: kernel.channels, pixels: output)
    }
}
