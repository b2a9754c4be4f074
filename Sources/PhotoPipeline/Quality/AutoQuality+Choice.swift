#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension AutoQuality {
    /// The quality the search settled on for one photo.
    struct Choice: Sendable, Equatable {
        let quality: Int
        /// The sample's butteraugli distance at that quality, measured or read off the search's
        /// line; the whole picture's is close to it (`nil` when the range's top was measured to
        /// miss the target, or when the picture is too small to score).
        let estimatedDistance: Double?
    }

    /// Sample encodings per photo at most: a pair either side of where the typical curve crosses
    /// the target, measured side by side, and when both miss or both meet and the line through
    /// them crosses the target far from them, one more nearer the crossing. The quality is then
    /// read off the line through two of them. Each costs some 15 ms where the budget is one more
    /// plain prepare (docs/performance.md).
    static let maximumMeasurements = 3
    /// The pair's line is followed at most this many qualities past it; a crossing further out
    /// gets a third measurement nearer it. (At the typical slope 4 qualities are 12 % of
    /// distance, about the sample's own error.)
    static let extrapolation = 4
    /// Tiles in the sample (``ComparisonSample/tileSide`` pixels square): about 25 000 pixels, some
    /// 15 ms of butteraugli on one core (most of it a fixed cost: 64 × 64 pixels take 10 ms).
    static let sampleTiles = 6
    /// The sample usually reads a little under the whole picture (its tiles miss some of the
    /// worst places the 12-norm counts), so it must stay within the target divided by this
    /// (docs/performance.md has what the whole pictures of the corpus photos came to).
    static let sampleAllowance = 1.1

    /// The lowest quality whose encoding of `image` stays within the target: a few encodings of a
    /// sample of its tiles, each decoded and scored against the sample by libjxl's butteraugli
    /// (``QualitySearch``). Nothing is decoded or resized again: the sample is cut from the
    /// rendered planes or pixels.
    /// - Parameters:
    ///   - image: the picture at its output size, as the encoder takes it.
    ///   - encoding: the output's settings; its quality is the one searched (and is kept when the
    ///     picture is too small to score).
    ///   - background: what transparent pixels become.
    ///   - workers: the photo's threads, when it has two: the first pair is measured side by side.
    func choose(for image: RenderedImage, encoding: EncodingOptions, background: RGBColor,
                workers: Workers? = nil) throws(PhotoError) -> Choice {
        let sample = try ComparisonSample(of: image, tiles: Self.sampleTiles, background: background)
        guard sample.reference.width >= 8, sample.reference.height >= 8 else {
            return Choice(quality: encoding.quality, estimatedDistance: nil)
        }
        let search = QualitySearch(target: targetDistance / Self.sampleAllowance, range: searched(for: encoding.format),
                                   start: start(for: encoding.format),
                                   maximumMeasurements: Self.maximumMeasurements, extrapolation: Self.extrapolation)
        /// One quality's distance; `nil` when libjxl cannot score the sample.
        @Sendable func distance(at quality: Int) -> Result<Double?, PhotoError> {
            Result { () throws(PhotoError) -> Double? in
                var options = encoding
                options.quality = quality
                let bytes = try sample.image.encode(options: options, iccProfile: nil, background: background)
                let decoded = try PhotoPipeline.decode(bytes).flattened(onto: background)
                return try Butteraugli.distance(sample.reference, decoded)
            }
        }
        var unscorable = false
        let outcome = try search.run { (batch) throws(PhotoError) -> [Double] in
            let results: [Result<Double?, PhotoError>]
            if batch.count == 2, let workers {
                let (first, second) = workers.sideBySide({ distance(at: batch[0]) }, and: { distance(at: batch[1]) })
                results = [first, second]
            } else {
                results = batch.map { distance(at: $0) }
            }
            return try results.map { (result) throws(PhotoError) -> Double in
                guard let value = try result.get() else {
                    unscorable = true
                    return 0
                }
                return value
            }
        }
        if unscorable { return Choice(quality: encoding.quality, estimatedDistance: nil) }
        return Choice(quality: outcome.quality, estimatedDistance: outcome.distance)
    }

    /// Below this target a JPEG may take full chroma (quality 95 and up): about where halved chroma
    /// stops reaching the target on the corpus photos.
    static let fullChromaTarget = 0.7

    /// The qualities searched for `format`: ``qualities``, but for a JPEG at a target halved chroma
    /// reaches, below the quality that keeps full chroma. That step costs a JPEG about twice the
    /// bytes for little less distance, and the line the search reads its answer off does not
    /// know it is there.
    public func searched(for format: OutputFormat) -> ClosedRange<Int> {
        guard format == .jpeg, targetDistance >= Self.fullChromaTarget,
              qualities.upperBound >= JPEGEncoder.fullChromaQuality, qualities.lowerBound < JPEGEncoder.fullChromaQuality else {
            return qualities
        }
        return qualities.lowerBound...(JPEGEncoder.fullChromaQuality - 1)
    }

    /// Where the corpus photos' samples cross the sample's target, by the typical fall of the
    /// distance with the quality (a JPEG's sample reads about 0.95 at 85, a WebP's about 1.0 at
    /// 91), within the qualities searched: the search starts around it, and the decode plans
    /// the planes' chroma for it.
    func start(for format: OutputFormat) -> Int {
        let (quality, distance) = format == .webp ? (91.0, 1.0) : (85.0, 0.95)
        let estimate = quality + (log(targetDistance / Self.sampleAllowance) - log(distance)) / QualitySearch.typicalSlope
        let range = searched(for: format)
        return estimate.isFinite ? min(range.upperBound, max(range.lowerBound, Int(estimate.rounded()))) : range.upperBound
    }
}
