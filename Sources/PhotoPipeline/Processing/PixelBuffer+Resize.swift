import Dispatch

extension PixelBuffer {
    /// The pixels resampled to `size` with a separable filter (Lanczos-3 by default).
    ///
    /// Alpha is resampled premultiplied, so transparent pixels lend no colour to the edges
    /// (no dark halos). Rows are processed in `threads` bands; each band keeps only a ring of
    /// horizontally filtered rows, so memory beyond input and output stays small.
    public func resized(to size: PixelSize, filter: ResamplingFilter = .lanczos3, threads: Int = 1) -> PixelBuffer {
        guard size != PixelSize(width: width, height: height) else { return self }
        precondition(size.width > 0 && size.height > 0, "target size must be positive")
        let horizontal = FilterContributions(inputLength: width, outputLength: size.width, filter: filter)
        let vertical = FilterContributions(inputLength: height, outputLength: size.height, filter: filter)
        var out = [UInt8](repeating: 0, count: size.width * size.height * channels)
        let bands = max(1, min(threads, size.height / 16))
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                let job = ResizeJob(src: src, dst: dst, srcWidth: width, channels: channels, outWidth: size.width,
                                    horizontal: horizontal, vertical: vertical)
                if bands == 1 {
                    job.run(rows: 0..<size.height)
                } else {
                    DispatchQueue.concurrentPerform(iterations: bands) { band in
                        job.run(rows: (size.height * band / bands)..<(size.height * (band + 1) / bands))
                    }
                }
            }
        }
        return PixelBuffer(width: size.width, height: size.height, channels: channels, pixels: out)
    }
}

/// One resize, shared read-only by the bands; each band writes disjoint output rows.
private struct ResizeJob: @unchecked Sendable {
    let src: UnsafeBufferPointer<UInt8>
    let dst: UnsafeMutableBufferPointer<UInt8>
    let srcWidth: Int
    let channels: Int
    let outWidth: Int
    let horizontal: FilterContributions
    let vertical: FilterContributions

    func run(rows: Range<Int>) {
        guard !rows.isEmpty else { return }
        let ringSize = vertical.stride
        var ring = [SIMD4<Float>](repeating: .zero, count: ringSize * outWidth)
        var ringRow = [Int](repeating: -1, count: ringSize)
        var line = [SIMD4<Float>](repeating: .zero, count: srcWidth)
        var accumulator = [SIMD4<Float>](repeating: .zero, count: outWidth)
        ring.withUnsafeMutableBufferPointer { ring in
            line.withUnsafeMutableBufferPointer { line in
                accumulator.withUnsafeMutableBufferPointer { acc in
                    for y in rows {
                        let first = vertical.starts[y], count = vertical.counts[y]
                        for k in 0..<count {
                            let sourceRow = first + k
                            let slot = sourceRow % ringSize
                            if ringRow[slot] != sourceRow {
                                filterRow(sourceRow, into: ring.baseAddress! + slot * outWidth, line: line)
                                ringRow[slot] = sourceRow
                            }
                        }
                        for x in 0..<outWidth { acc[x] = .zero }
                        for k in 0..<count {
                            let weight = vertical.weights[y * vertical.stride + k]
                            let row = ring.baseAddress! + ((first + k) % ringSize) * outWidth
                            for x in 0..<outWidth { acc[x] += weight * row[x] }
                        }
                        store(acc, row: y)
                    }
                }
            }
        }
    }

    /// Loads one source row as premultiplied float pixels, then filters it horizontally into `target`.
    private func filterRow(_ row: Int, into target: UnsafeMutablePointer<SIMD4<Float>>,
                           line: UnsafeMutableBufferPointer<SIMD4<Float>>) {
        let base = row * srcWidth * channels
        switch channels {
        case 4:
            for x in 0..<srcWidth {
                let i = base + x * 4
                let a = Float(src[i + 3])
                let scale = a / 255
                line[x] = SIMD4(Float(src[i]) * scale, Float(src[i + 1]) * scale, Float(src[i + 2]) * scale, a)
            }
        case 3:
            for x in 0..<srcWidth {
                let i = base + x * 3
                line[x] = SIMD4(Float(src[i]), Float(src[i + 1]), Float(src[i + 2]), 0)
            }
        default:
            for x in 0..<srcWidth { line[x] = SIMD4(repeating: Float(src[base + x])) }
        }
        horizontal.weights.withUnsafeBufferPointer { weights in
            for x in 0..<outWidth {
                let start = horizontal.starts[x]
                let w = weights.baseAddress! + x * horizontal.stride
                var sum = SIMD4<Float>.zero
                for k in 0..<horizontal.counts[x] { sum += w[k] * line[start + k] }
                target[x] = sum
            }
        }
    }

    /// Rounds, clamps and (for alpha) un-premultiplies one output row.
    private func store(_ acc: UnsafeMutableBufferPointer<SIMD4<Float>>, row y: Int) {
        let base = y * outWidth * channels
        let low = SIMD4<Float>(repeating: 0), high = SIMD4<Float>(repeating: 255)
        for x in 0..<outWidth {
            var v = acc[x]
            if channels == 4 {
                let a = min(max(v[3], 0), 255)
                if a > 0 {
                    let scale = 255 / a
                    v = SIMD4(v[0] * scale, v[1] * scale, v[2] * scale, a)
                } else {
                    v = .zero
                }
            }
            v = (v + 0.5).clamped(lowerBound: low, upperBound: high)
            let i = base + x * channels
            switch channels {
            case 4:
                dst[i] = UInt8(v[0]); dst[i + 1] = UInt8(v[1]); dst[i + 2] = UInt8(v[2]); dst[i + 3] = UInt8(v[3])
            case 3:
                dst[i] = UInt8(v[0]); dst[i + 1] = UInt8(v[1]); dst[i + 2] = UInt8(v[2])
            default:
                dst[i] = UInt8(v[0])
            }
        }
    }
}
