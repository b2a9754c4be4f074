#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One axis' weights in Q14 for the C loops: `values[i * stride ..< i * stride + 2 * pairs]` belong
/// to output sample `i` (zero past its own taps; `stride` even, so a pair is one aligned 32-bit
/// read), and each sample's sum to exactly 1 << 14, so a flat area stays exactly flat.
struct FixedPointWeights {
    let values: [Int16]
    let stride: Int
    /// Pairs of taps that cover the most taps any sample has: every sample runs that many, so
    /// the loop's count never changes from one sample to the next.
    let pairs: Int

    init(_ contributions: FilterContributions) {
        let most = contributions.counts.max() ?? 0
        pairs = (most + 1) / 2
        stride = max(2 * pairs, 2)
        let one = 1 << 14, stride = stride
        // Through buffers, no array per sample: an array each is an allocation per output pixel of
        // the setup, before the decode can start.
        values = contributions.weights.withUnsafeBufferPointer { weights in
            [Int16](unsafeUninitializedCapacity: contributions.counts.count * stride) { buffer, initialized in
                let out = buffer.baseAddress!
                for i in contributions.counts.indices {
                    let count = contributions.counts[i]
                    let source = weights.baseAddress! + i * contributions.stride
                    let row = out + i * stride
                    // The weights of a sample a period back, if they were the same (see FilterContributions).
                    let back = i - contributions.period
                    if contributions.period > 0, back >= 0, contributions.counts[back] == count,
                       memcmp(source, source - contributions.period * contributions.stride, count * MemoryLayout<Float>.size) == 0 {
                        row.update(from: out + back * stride, count: stride)
                        continue
                    }
                    // What rounding took from (or gave to) the sum goes to the largest tap (the first of equals).
                    var sum = 0, largest = 0
                    for k in 0..<count {
                        let quantized = Int((source[k] * Float(one)).rounded())
                        // Lanczos' largest weight is about 1.22 (chroma upscaled at an edge): far inside Q14's ±2.
                        precondition(abs(quantized) < 1 << 15, "a resize weight of \(source[k]) does not fit Q14")
                        row[k] = Int16(quantized)
                        sum += quantized
                        if abs(source[k]) > abs(source[largest]) { largest = k }
                    }
                    if count > 0 {
                        let adjusted = Int(row[largest]) + one - sum
                        precondition(abs(adjusted) < 1 << 15, "a resize weight of \(source[largest]) does not fit Q14")
                        row[largest] = Int16(adjusted)
                    }
                    for k in count..<stride { row[k] = 0 }
                }
                initialized = contributions.counts.count * stride
            }
        }
    }
}
