/// Quality chosen for each photo by what people see: the lowest encoder quality whose picture stays
/// within a perceptual distance of the resized photo (`photo prepare --quality auto`, the server's
/// uploads and variants).
///
/// The distance is butteraugli's (libjxl's "3-norm": the mean of the 3-, 6- and 12-norms of its
/// distance map, the figure jpegli is tuned on and `../shared/tools/rd-bench.py` scores), measured
/// on a sample of the picture (``ComparisonSample``): on the whole picture butteraugli costs about
/// twenty times a whole prepare per measurement. docs/cli.md says what the distances look like.
public struct AutoQuality: Sendable, Hashable, Codable {
    /// The butteraugli distance the output stays within. Default ``defaultTarget``.
    public var targetDistance: Double
    /// The qualities searched: the lowest when even it stays within the target, the highest when
    /// none does (for a JPEG at a target of 0.7 or more, at most 94: see ``searched(for:)``).
    public var qualities: ClosedRange<Int>

    /// Butteraugli 1.1: what quality 85 gives the median corpus photo at 2048 px with the encoder
    /// of the time, at which a photo at its size on a phone shows no artefact a person points at.
    public static let defaultTarget = 1.1

    public init(targetDistance: Double = AutoQuality.defaultTarget, qualities: ClosedRange<Int> = 40...95) {
        self.targetDistance = targetDistance
        self.qualities = qualities
    }

    /// Checks ranges; the message names the setting and its allowed values.
    func validate() throws(PhotoError) {
        guard targetDistance > 0, targetDistance.isFinite else {
            throw .invalidOption("The target distance must be a positive number (got \(targetDistance)).")
        }
        guard qualities.lowerBound >= 1, qualities.upperBound <= 100 else {
            throw .invalidOption("The qualities searched must lie within 1–100 (got \(qualities.lowerBound)–\(qualities.upperBound)).")
        }
    }
}
