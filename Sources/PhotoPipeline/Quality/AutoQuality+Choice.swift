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
    /// read off the line through two of them. Each costs some 12 ms of a core where the budget is
    /// one more plain prepare (docs/performance.md).
    static let maximumMeasurements = 3
    /// The pair's line is followed at most this many qualities past it; a crossing further out
    /// gets a third measurement nearer it. (At the typical slope 4 qualities are 12 % of
    /// distance, about the sample's own error.)
    static let extrapolation = 4
    /// Tiles in the sample (``ComparisonSample/tileSide`` pixels square): about 25 000 pixels, some
    /// 12 ms of butteraugli on one core (half a microsecond a pixel).
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
        let parts = sample.parts
        let reference = LinearPicture(sample.reference)
        let references = parts.map { reference.cropped(to: $0.window) }
        let search = QualitySearch(target: targetDistance / Self.sampleAllowance, range: searched(for: encoding.format),
                                   start: start(for: encoding.format, pixels: image.size.pixelCount),
                                   maximumMeasurements: Self.maximumMeasurements, extrapolation: Self.extrapolation)
        /// The sample encoded at `quality` and decoded, as butteraugli takes it.
        @Sendable func decoded(at quality: Int) throws(PhotoError) -> LinearPicture {
            var options = encoding
            options.quality = quality
            let bytes = try sample.image.encode(options: options, iccProfile: nil, background: background)
            return LinearPicture(try PhotoPipeline.decode(bytes).flattened(onto: background))
        }
        /// One part's distance map sums; `nil` when libjxl cannot score it.
        @Sendable func sums(_ part: Int, of picture: LinearPicture) -> Result<Butteraugli.Sums?, PhotoError> {
            Result { () throws(PhotoError) in
                try Butteraugli.sums(references[part], picture.cropped(to: parts[part].window), counting: parts[part].counted)
            }
        }
        /// One quality's distance, the sample scored whole.
        @Sendable func distance(at quality: Int) -> Result<Double?, PhotoError> {
            Result { () throws(PhotoError) -> Double? in try Butteraugli.sums(reference, decoded(at: quality))?.distance }
        }
        /// One quality's distance, the sample's two parts side by side (the same figure, to a
        /// few parts in ten thousand).
        func distanceSplit(at quality: Int, on workers: Workers) -> Result<Double?, PhotoError> {
            Result { () throws(PhotoError) -> Double? in
                let picture = try decoded(at: quality)
                let (first, second) = workers.sideBySide({ sums(0, of: picture) }, and: { sums(1, of: picture) })
                guard let first = try first.get(), let second = try second.get() else { return nil }
                return (first + second).distance
            }
        }
        var unscorable = false
        let outcome = try search.run { (batch) throws(PhotoError) -> [Double] in
            let results: [Result<Double?, PhotoError>]
            if batch.count == 2, let workers {
                // A pair: one quality on each thread.
                let (first, second) = workers.sideBySide({ distance(at: batch[0]) }, and: { distance(at: batch[1]) })
                results = [first, second]
            } else if batch.count == 1, parts.count == 2, let workers {
                results = [distanceSplit(at: batch[0], on: workers)]
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

    /// A picture of this many pixels or more starts where a 2048 × 1536 one does.
    static let startPixels = 2048 * 1536
    /// Qualities the start rises for each halving of the pixels below ``startPixels``: a smaller
    /// picture holds more detail in each pixel. At `auto:1.1` the corpus camera photos' median
    /// quality is 85 at 2048 px, 87 at 1024 and 88 at 640. Started there, the pair sits around
    /// the crossing at each size, and the search rarely needs a third measurement, which costs
    /// about what the pair does.
    static let startRisePerHalving = 1.0

    /// Where the corpus photos' samples cross the sample's target, by the typical fall of the
    /// distance with the quality (a JPEG's sample of a 2048 px picture reads about 0.95 at 85, a
    /// WebP's about 1.0 at 91), within the qualities searched: the search starts around it, and
    /// the decode plans the planes' chroma for it (not knowing `pixels`).
    /// - Parameter pixels: the picture's pixel count, when known.
    func start(for format: OutputFormat, pixels: Int? = nil) -> Int {
        let (quality, distance) = format == .webp ? (91.0, 1.0) : (85.0, 0.95)
        let halvings = pixels.map { max(0, log2(Double(Self.startPixels) / Double(max(1, $0)))) } ?? 0
        let estimate = quality + Self.startRisePerHalving * halvings
            + (log(targetDistance / Self.sampleAllowance) - log(distance)) / QualitySearch.typicalSlope
        let range = searched(for: format)
        return estimate.isFinite ? min(range.upperBound, max(range.lowerBound, Int(estimate.rounded()))) : range.upperBound
    }
}
