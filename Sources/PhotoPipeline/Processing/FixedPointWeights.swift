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
        let one = 1 << 14
        var values = [Int16](repeating: 0, count: contributions.counts.count * stride)
        for i in contributions.counts.indices {
            let count = contributions.counts[i]
            guard count > 0 else { continue }
            let weights = contributions.weights[(i * contributions.stride)..<(i * contributions.stride + count)]
            var quantized = weights.map { Int(($0 * Float(one)).rounded()) }
            // What rounding took from (or gave to) the sum goes to the largest tap.
            let largest = weights.indices.max { abs(weights[$0]) < abs(weights[$1]) }! - weights.startIndex
            quantized[largest] += one - quantized.reduce(0, +)
            // Lanczos' largest weight is about 1.22 (chroma upscaled at an edge): far inside Q14's ±2.
            for k in 0..<count {
                precondition(abs(quantized[k]) < 1 << 15, "a resize weight of \(weights[weights.startIndex + k]) does not fit Q14")
                values[i * stride + k] = Int16(quantized[k])
            }
        }
        self.values = values
    }
}
