/// The eight EXIF orientations (TIFF tag 0x0112): how the stored pixels must be turned to be upright.
///
/// The raw value is the tag value. Tag values outside 1…8 (0 is common) mean ``up``.
public enum ExifOrientation: Int, Sendable, Codable, CaseIterable {
    case up = 1, upMirrored = 2, down = 3, downMirrored = 4
    case leftMirrored = 5, right = 6, rightMirrored = 7, left = 8

    /// The orientation for a raw tag value; anything outside 1…8 is treated as ``up``.
    public init(tagValue: Int?) {
        self = tagValue.flatMap(ExifOrientation.init(rawValue:)) ?? .up
    }

    /// Whether the upright image has width and height swapped relative to the stored one.
    public var swapsDimensions: Bool { rawValue >= 5 }

    /// A short human description, e.g. "rotate 90° clockwise".
    public var summary: String {
        switch self {
        case .up: "upright"
        case .upMirrored: "mirror horizontally"
        case .down: "rotate 180°"
        case .downMirrored: "mirror vertically"
        case .leftMirrored: "mirror, then rotate 90° counter-clockwise"
        case .right: "rotate 90° clockwise"
        case .rightMirrored: "mirror, then rotate 90° clockwise"
        case .left: "rotate 90° counter-clockwise"
        }
    }
}
