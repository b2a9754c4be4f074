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
        let ring = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: ringSize * outWidth)
        let line = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: srcWidth)
        let output = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: outWidth)
        let rowPointers = UnsafeMutablePointer<UnsafePointer<SIMD4<Float>>>.allocate(capacity: ringSize)
        defer {
            ring.deallocate()
            line.deallocate()
            output.deallocate()
            rowPointers.deallocate()
        }
        var ringRow = [Int](repeating: -1, count: ringSize)
        vertical.vectorWeights.withUnsafeBufferPointer { verticalWeights in
            for y in rows {
                let first = vertical.starts[y], count = vertical.counts[y]
                for k in 0..<count {
                    let sourceRow = first + k
                    let slot = sourceRow % ringSize
                    if ringRow[slot] != sourceRow {
                        filterRow(sourceRow, into: ring + slot * outWidth, line: line)
                        ringRow[slot] = sourceRow
                    }
                    rowPointers[k] = UnsafePointer(ring + slot * outWidth)
                }
                let weights = verticalWeights.baseAddress! + y * vertical.stride
                for x in 0..<outWidth {
                    var sum = SIMD4<Float>.zero
                    for k in 0..<count { sum += weights[k] * rowPointers[k][x] }
                    output[x] = sum
                }
                store(output, row: y)
            }
        }
    }

    /// Loads one source row as premultiplied float pixels, then filters it horizontally into `target`.
    private func filterRow(_ row: Int, into target: UnsafeMutablePointer<SIMD4<Float>>,
                           line: UnsafeMutablePointer<SIMD4<Float>>) {
        let source = src.baseAddress! + row * srcWidth * channels
        switch channels {
        case 4:
            for x in 0..<srcWidth {
                let p = source + x * 4
                let a = Float(p[3])
                let scale = a * (1 / 255)
                line[x] = SIMD4(Float(p[0]) * scale, Float(p[1]) * scale, Float(p[2]) * scale, a)
            }
        case 3:
            for x in 0..<srcWidth {
                let p = source + x * 3
                line[x] = SIMD4(Float(p[0]), Float(p[1]), Float(p[2]), 0)
            }
        default:
            for x in 0..<srcWidth { line[x] = SIMD4(repeating: Float(source[x])) }
        }
        horizontal.vectorWeights.withUnsafeBufferPointer { weights in
            horizontal.starts.withUnsafeBufferPointer { starts in
                horizontal.counts.withUnsafeBufferPointer { counts in
                    let stride = horizontal.stride
                    for x in 0..<outWidth {
                        let w = weights.baseAddress! + x * stride
                        let pixels = line + starts[x]
                        var sum = SIMD4<Float>.zero
                        for k in 0..<counts[x] { sum += w[k] * pixels[k] }
                        target[x] = sum
                    }
                }
            }
        }
    }

    /// Rounds, clamps and (for alpha) un-premultiplies one output row.
    private func store(_ acc: UnsafeMutablePointer<SIMD4<Float>>, row y: Int) {
        @inline(__always) func byte(_ value: Float) -> UInt8 {
            let v = value + 0.5
            return v <= 0 ? 0 : v >= 255 ? 255 : UInt8(v)
        }
        let dst = self.dst.baseAddress! + y * outWidth * channels
        switch channels {
        case 4:
            for x in 0..<outWidth {
                let v = acc[x]
                let a = v[3]
                let scale: Float = a > 0.5 ? 255 / a : 0
                let p = dst + x * 4
                p[0] = byte(v[0] * scale); p[1] = byte(v[1] * scale); p[2] = byte(v[2] * scale); p[3] = byte(a)
            }
        case 3:
            for x in 0..<outWidth {
                let v = acc[x]
                let p = dst + x * 3
                p[0] = byte(v[0]); p[1] = byte(v[1]); p[2] = byte(v[2])
            }
        default:
            for x in 0..<outWidth { dst[x] = byte(acc[x][0]) }
        }
    }
}
