extension PixelBuffer {
    /// The pixels resampled to `size` with a separable filter (Lanczos-3 by default).
    ///
    /// Alpha is resampled premultiplied, so transparent pixels lend no colour to the edges
    /// (no dark halos). Rows are processed in `threads` bands; each band keeps only a ring of
    /// horizontally filtered rows, so memory beyond input and output stays small.
    public func resized(to size: PixelSize, filter: ResamplingFilter = .lanczos3, threads: Int = 1) -> PixelBuffer {
        resized(to: size, filter: filter, threads: threads, on: Workers())
    }

    /// The pixels resampled to `size`, the row bands run side by side on `workers`.
    func resized(to size: PixelSize, filter: ResamplingFilter, threads: Int, on workers: Workers) -> PixelBuffer {
        guard size != PixelSize(width: width, height: height) else { return self }
        precondition(size.width > 0 && size.height > 0, "target size must be positive")
        let kernel = ResampleKernel(source: PixelSize(width: width, height: height), target: size,
                                    channels: channels, filter: filter)
        var out = [UInt8](repeating: 0, count: size.width * size.height * channels)
        let bands = max(1, min(threads, size.height / 16))
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                let job = BandedResize(kernel: kernel, src: src.baseAddress!, dst: dst.baseAddress!)
                workers.forEach(bands) { band in
                    job.run(rows: (size.height * band / bands)..<(size.height * (band + 1) / bands))
                }
            }
        }
        return PixelBuffer(width: size.width, height: size.height, channels: channels, pixels: out)
    }
}

/// One whole-buffer resize, shared read-only by the bands; each band writes disjoint output rows.
private struct BandedResize: @unchecked Sendable {
    let kernel: ResampleKernel
    let src: UnsafePointer<UInt8>
    let dst: UnsafeMutablePointer<UInt8>

    func run(rows: Range<Int>) {
        let scratch = ResampleScratch(kernel, width: kernel.outWidth)
        let columns = 0..<kernel.outWidth
        let srcRowBytes = kernel.srcWidth * kernel.channels
        let dstRowBytes = kernel.outWidth * kernel.channels
        for y in rows {
            let first = kernel.vertical.starts[y]
            for sourceRow in first..<(first + kernel.vertical.counts[y]) {
                let slot = sourceRow % scratch.slotRow.count
                if scratch.slotRow[slot] != sourceRow {
                    kernel.filterRow(src + sourceRow * srcRowBytes, line: scratch.line, into: scratch.slot(sourceRow),
                                     columns: columns)
                    scratch.slotRow[slot] = sourceRow
                }
            }
            scratch.gather(for: y)
            kernel.combine(row: y, rows: scratch.rowPointers, into: scratch.output, width: kernel.outWidth)
            kernel.store(scratch.output, into: dst + y * dstRowBytes, width: kernel.outWidth)
        }
    }
}
