#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Separable resampling kernels.
public enum ResamplingFilter: String, Sendable, Hashable, Codable, CaseIterable {
    /// Lanczos windowed sinc with 3 lobes: sharp, little ringing; the default.
    case lanczos3
    /// Lanczos with 2 lobes: a little softer and faster.
    case lanczos2

    var radius: Double {
        switch self {
        case .lanczos3: 3
        case .lanczos2: 2
        }
    }

    func weight(_ x: Double) -> Double {
        let theta = Double.pi * x / radius
        return weight(x, sinTheta: sin(theta), cosTheta: cos(theta))
    }

    /// The weight at `x`, given sin θ and cos θ for θ = πx/radius. One sine instead of two: for
    /// Lanczos-3, sin(πx) = sin(3θ) = 3 sin θ − 4 sin³ θ; for Lanczos-2, sin(2θ) = 2 sin θ cos θ.
    /// The weight is even in x (a product of two odd functions over x²).
    @inline(__always)
    func weight(_ x: Double, sinTheta s: Double, cosTheta c: Double) -> Double {
        let ax = abs(x)
        guard ax < radius else { return 0 }
        guard ax > 1e-9 else { return 1 }
        let pix = Double.pi * x
        let sinPix = self == .lanczos3 ? s * (3 - 4 * s * s) : 2 * s * c
        return radius * sinPix * s / (pix * pix)
    }
}

/// For each output sample along one axis: the first input sample and normalised weights.
///
/// When shrinking, the kernel is stretched by the scale so that it also low-pass filters
/// (no aliasing of fine detail).
struct FilterContributions {
    let starts: [Int]
    let counts: [Int]
    /// `weights[i * stride ..< i * stride + counts[i]]` belong to output sample `i`, zero after
    /// those. One float per tap (they were broadcast to four lanes: four times the memory, all of
    /// it faulted in before the decode could start, for loops that read one lane).
    let weights: [Float]
    let stride: Int
    /// Samples `period` apart may have the same weights (0: no such period is looked for).
    let period: Int
    /// How many samples' weights were copied from a period back rather than computed.
    let copied: Int

    /// - Parameter reusePeriod: copy the weights of samples a period apart (tests turn it off to
    ///   check the copies against computed weights).
    init(inputLength: Int, outputLength: Int, filter: ResamplingFilter, reusePeriod: Bool = true) {
        let scale = Double(inputLength) / Double(outputLength)
        let stretch = max(scale, 1)
        let support = filter.radius * stretch
        let stride = Int((support * 2).rounded(.up)) + 2
        // Taps are 1/stretch apart in x, so θ = πx/radius steps by a fixed δ: sin θ and cos θ follow
        // by rotation, one sin/cos pair per output sample instead of a sine per tap (the weights are
        // computed before the decode can start).
        let delta = Double.pi / (filter.radius * stretch)
        let (sinDelta, cosDelta) = (sin(delta), cos(delta))
        var starts = [Int](repeating: 0, count: outputLength)
        var counts = [Int](repeating: 0, count: outputLength)
        let raw = UnsafeMutablePointer<Double>.allocate(capacity: Int((support * 2).rounded(.up)) + 3)
        defer { raw.deallocate() }
        // A sample's weights depend only on its first tap's offset x0 and its tap count, and x0 comes
        // back every `period` samples: exactly (to the bit) always when the scale is exact in binary
        // (4032 → 2048 is 63/32), often otherwise. When it does, the weights are copied, not
        // computed again: bit for bit the same.
        let period = outputLength / Self.gcd(inputLength, outputLength)
        var seen = [(x0: Double, taps: Int, trimmed: Int)](repeating: (.nan, 0, 0), count: reusePeriod && period <= outputLength / 2 ? period : 0)
        var copied = 0
        let weights = [Float](unsafeUninitializedCapacity: outputLength * stride) { buffer, initialized in
            let out = buffer.baseAddress!
            for i in 0..<outputLength {
                let center = (Double(i) + 0.5) * scale
                let first = max(0, Int((center - support).rounded(.down)))
                let last = min(inputLength - 1, Int((center + support).rounded(.up)))
                let taps = last - first + 1
                let x0 = (Double(first) + 0.5 - center) / stretch
                let row = out + i * stride
                if i >= period, !seen.isEmpty, seen[i % period].x0 == x0, seen[i % period].taps == taps {
                    starts[i] = first + seen[i % period].trimmed
                    counts[i] = counts[i - period]
                    row.update(from: row - period * stride, count: stride)
                    copied += 1
                    continue
                }
                var theta = (sin(Double.pi * x0 / filter.radius), cos(Double.pi * x0 / filter.radius))
                for j in 0..<taps {
                    raw[j] = filter.weight(x0 + Double(j) / stretch, sinTheta: theta.0, cosTheta: theta.1)
                    theta = (theta.0 * cosDelta + theta.1 * sinDelta, theta.1 * cosDelta - theta.0 * sinDelta)
                }
                // Trim zero weights at both ends so the inner loops stay short.
                var lo = 0, hi = taps - 1
                while lo < hi, raw[lo] == 0 { lo += 1 }
                while hi > lo, raw[hi] == 0 { hi -= 1 }
                let kept = min(hi - lo + 1, stride)
                var total = 0.0
                for k in 0..<kept { total += raw[lo + k] }
                starts[i] = first + lo
                counts[i] = kept
                if !seen.isEmpty { seen[i % period] = (x0, taps, lo) }
                for k in 0..<kept {
                    row[k] = Float(total != 0 ? raw[lo + k] / total : (k == 0 ? 1 : 0))
                }
                for k in kept..<stride { row[k] = 0 }
            }
            initialized = outputLength * stride
        }
        self.starts = starts
        self.counts = counts
        self.weights = weights
        self.stride = stride
        self.period = seen.isEmpty ? 0 : period
        self.copied = copied
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
}
