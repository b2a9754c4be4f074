#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The dominant colours of a photo's salient region, in CIELAB (D65), with their shares: what
/// tells a black dog from a golden one when two reports are compared.
public struct ColourSignature: Sendable, Hashable, Codable {
    public struct Colour: Sendable, Hashable, Codable {
        public var l: Double
        public var a: Double
        public var b: Double
        /// Share of the region, 0…1.
        public var weight: Double

        public init(l: Double, a: Double, b: Double, weight: Double) {
            self.l = l
            self.a = a
            self.b = b
            self.weight = weight
        }

        /// CIE76 ΔE: Euclidean distance in Lab (a difference of about 2.3 is just noticeable;
        /// past 30 the colours are plainly different).
        public func deltaE(_ other: Colour) -> Double {
            ((l - other.l) * (l - other.l) + (a - other.a) * (a - other.a) + (b - other.b) * (b - other.b)).squareRoot()
        }
    }

    /// Up to three colours, the largest share first.
    public var colours: [Colour]

    public init(colours: [Colour]) {
        self.colours = colours
    }

    /// How different two signatures are, in ΔE: each colour's distance to the nearest colour of
    /// the other, weighted by its share, averaged both ways (0: the same colours).
    public func distance(to other: ColourSignature) -> Double {
        guard !colours.isEmpty, !other.colours.isEmpty else { return .infinity }
        func oneWay(_ from: [Colour], _ to: [Colour]) -> Double {
            let total = from.reduce(0) { $0 + $1.weight }
            return from.reduce(0) { sum, colour in sum + colour.weight * (to.map { colour.deltaE($0) }.min() ?? 0) } / max(total, 1e-9)
        }
        return (oneWay(colours, other.colours) + oneWay(other.colours, colours)) / 2
    }
}

extension PhotoPipeline {
    /// The colour signature of the photo in `bytes`: decoded small (the codec's reduced scale),
    /// its attention crop (``attentionCrop(_:aspect:)``, square: where the animal most likely is),
    /// the middle of that crop weighted over its edges, and three colours found by k-means in
    /// CIELAB. Deterministic: the same photo gives the same signature.
    public static func colourSignature(_ bytes: [UInt8], limits: PhotoLimits = .default) throws(PhotoError) -> ColourSignature {
        let info = try probe(bytes, within: limits)
        let decoded = try ImageDecoders.decoder(for: info.type).decode(bytes, info: info, minimumLongEdge: 96).oriented(info.orientation)
        return colourSignature(of: decoded)
    }

    /// The colour signature of decoded pixels (see ``colourSignature(_:limits:)``).
    public static func colourSignature(of image: PixelBuffer) -> ColourSignature {
        guard image.width > 0, image.height > 0 else { return ColourSignature(colours: []) }
        let scale = min(1, 96.0 / Double(max(image.width, image.height)))
        let small = scale < 1
            ? image.resized(to: PixelSize(width: max(1, Int(Double(image.width) * scale)), height: max(1, Int(Double(image.height) * scale))),
                            filter: .lanczos2)
            : image
        let crop = attentionCrop(small, aspect: 1)
        // The inner part of the crop: the animal more than what surrounds it.
        let inset = (x: crop.width / 6, y: crop.height / 6)
        var samples: [(l: Double, a: Double, b: Double)] = []
        for y in (crop.y + inset.y)..<(crop.y + crop.height - inset.y) {
            for x in (crop.x + inset.x)..<(crop.x + crop.width - inset.x) {
                let (r, g, b, _) = small.rgba(x: x, y: y)
                samples.append(lab(r, g, b))
            }
        }
        if samples.isEmpty {
            let (r, g, b, _) = small.rgba(x: small.width / 2, y: small.height / 2)
            samples = [lab(r, g, b)]
        }
        return ColourSignature(colours: kMeans(samples, clusters: 3, iterations: 10))
    }

    /// sRGB (8 bit) to CIELAB under D65.
    static func lab(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> (l: Double, a: Double, b: Double) {
        func linear(_ value: UInt8) -> Double {
            let c = Double(value) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        let (rl, gl, bl) = (linear(r), linear(g), linear(b))
        let x = (0.4124 * rl + 0.3576 * gl + 0.1805 * bl) / 0.95047
        let y = 0.2126 * rl + 0.7152 * gl + 0.0722 * bl
        let z = (0.0193 * rl + 0.1192 * gl + 0.9505 * bl) / 1.08883
        func f(_ t: Double) -> Double { t > 0.008856 ? cbrt(t) : 7.787 * t + 16.0 / 116 }
        let (fx, fy, fz) = (f(x), f(y), f(z))
        return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
    }

    /// Lloyd's k-means from centres at the 1/6, 3/6 and 5/6 quantiles of lightness (so the
    /// result does not depend on chance); clusters that end empty are dropped.
    static func kMeans(_ samples: [(l: Double, a: Double, b: Double)], clusters: Int, iterations: Int) -> [ColourSignature.Colour] {
        let byLightness = samples.sorted { $0.l < $1.l }
        var centres = (0..<clusters).map { index in byLightness[min(byLightness.count - 1, (2 * index + 1) * byLightness.count / (2 * clusters))] }
        var counts = [Int](repeating: 0, count: clusters)
        for _ in 0..<iterations {
            var sums = [(l: Double, a: Double, b: Double)](repeating: (0, 0, 0), count: clusters)
            counts = [Int](repeating: 0, count: clusters)
            for sample in samples {
                var best = 0, bestDistance = Double.infinity
                for (index, centre) in centres.enumerated() {
                    let distance = (sample.l - centre.l) * (sample.l - centre.l) + (sample.a - centre.a) * (sample.a - centre.a)
                        + (sample.b - centre.b) * (sample.b - centre.b)
                    if distance < bestDistance { (best, bestDistance) = (index, distance) }
                }
                sums[best] = (sums[best].l + sample.l, sums[best].a + sample.a, sums[best].b + sample.b)
                counts[best] += 1
            }
            for index in 0..<clusters where counts[index] > 0 {
                let n = Double(counts[index])
                centres[index] = (sums[index].l / n, sums[index].a / n, sums[index].b / n)
            }
        }
        let total = Double(samples.count)
        func tenth(_ value: Double) -> Double { (value * 10).rounded() / 10 }
        var colours: [ColourSignature.Colour] = []
        for (centre, count) in zip(centres, counts) where count > 0 {
            let share = (Double(count) / total * 1000).rounded() / 1000
            colours.append(ColourSignature.Colour(l: tenth(centre.l), a: tenth(centre.a), b: tenth(centre.b), weight: share))
        }
        return colours.sorted { $0.weight > $1.weight }
    }
}
