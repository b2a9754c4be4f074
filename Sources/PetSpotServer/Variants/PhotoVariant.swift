import PhotoPipeline

/// One of the fixed sizes and formats a stored photo is also served in: 320, 640 and 1200 px
/// wide, and the photo's own size, each as JPEG and WebP. Only these: an open `?w=` would let
/// any client make the server resize to every width there is.
///
/// The public path is `/photos/{digest}/{name}` (`w640.webp`, `full.jpg`); the store key is
/// `<digest>-<size>-r<recipe>.<ext>`, so it follows from the photo and the parameters alone and
/// a changed recipe (quality, filter) gets new keys instead of overwriting cached bytes.
struct PhotoVariant: Hashable, Sendable {
    enum Size: Hashable, Sendable {
        /// Scaled to this width (never up: only offered for photos wider than it).
        case width(Int)
        /// The photo's own size.
        case full
    }

    enum Format: String, Sendable, CaseIterable {
        case jpeg, webp

        var fileExtension: String { self == .jpeg ? "jpg" : "webp" }
        var mimeType: String { self == .jpeg ? "image/jpeg" : "image/webp" }

        init?(fileExtension: Substring) {
            switch fileExtension {
            case "jpg": self = .jpeg
            case "webp": self = .webp
            default: return nil
            }
        }
    }

    var size: Size
    var format: Format

    /// The widths offered below the photo's own: a phone's list card (320 at 1×, 640 at 2×),
    /// a details screen, and 1200 — what link previews ask for (`og:image`).
    static let widths = [320, 640, 1200]
    /// Bumped whenever the output of a variant changes for the same photo.
    static let recipe = 2
    /// The butteraugli distance every variant is made within (``AutoQuality``): looser than the
    /// stored photo's 1.1, which is the one a finder zooms into; a variant is a list card or a
    /// preview, shown at or below its pixel size. At 640 and 1200 px over the corpus photos this
    /// gives JPEGs of about the bytes quality 82 gave (docs/performance.md).
    static let targetDistance = 1.4

    /// Every variant a photo `sourceWidth` pixels wide has, narrowest first, JPEG before WebP.
    static func all(sourceWidth: Int) -> [PhotoVariant] {
        let sizes = widths.map(Size.width) + [.full]
        return sizes.flatMap { size in Format.allCases.map { PhotoVariant(size: size, format: $0) } }
            .filter { $0.exists(forSourceWidth: sourceWidth) }
    }

    /// Whether a photo `sourceWidth` pixels wide has this variant (never scaled up).
    func exists(forSourceWidth sourceWidth: Int) -> Bool {
        guard case .width(let width) = size else { return true }
        return width < sourceWidth
    }

    /// Every key a variant of the photo `key` can be stored under (whether made yet or not).
    static func stored(of key: String) -> [String] {
        guard PhotoKey.isValid(key), key.hasSuffix(".jpg") else { return [] }
        return all(sourceWidth: .max).filter { !$0.isSourceItself }.map { $0.storeKey(digest: PhotoKey.digest(of: key)) }
    }

    /// The last path component: `w640.webp`, `full.jpg`.
    var name: String {
        switch size {
        case .width(let width): "w\(width).\(format.fileExtension)"
        case .full: "full.\(format.fileExtension)"
        }
    }

    /// Reads a path's last component; `nil` for anything not in the fixed set.
    init?(name: String) {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let format = Format(fileExtension: parts[1]), let size = Self.size(named: parts[0]) else { return nil }
        self.init(size: size, format: format)
    }

    init(size: Size, format: Format) {
        self.size = size
        self.format = format
    }

    private static func size(named text: Substring) -> Size? {
        if text == "full" { return .full }
        guard text.first == "w", let width = Int(text.dropFirst()), widths.contains(width), "w\(width)" == text else { return nil }
        return .width(width)
    }

    /// The full-size JPEG is the stored photo itself; every other variant is made from it.
    var isSourceItself: Bool { self == PhotoVariant(size: .full, format: .jpeg) }

    /// Where this variant of the photo with `digest` is stored.
    func storeKey(digest: Substring) -> String {
        let size = switch self.size {
        case .width(let width): "w\(width)"
        case .full: "full"
        }
        return "\(digest)-\(size)-r\(Self.recipe).\(format.fileExtension)"
    }

    /// The photo every variant is made from: the server stores photos as JPEG.
    static func sourceKey(digest: Substring) -> String {
        "\(digest).jpg"
    }

    /// Reads a store key ``storeKey(digest:)`` wrote — with this recipe or an earlier one — and
    /// says which.
    static func parse(storeKey key: String) -> (digest: Substring, variant: PhotoVariant, recipe: Int)? {
        let parts = key.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, PhotoKey.isDigest(parts[0]) else { return nil }
        let tail = parts[2].split(separator: ".", omittingEmptySubsequences: false)
        guard tail.count == 2, tail[0].first == "r", let recipe = Int(tail[0].dropFirst()), recipe >= 1, "r\(recipe)" == tail[0],
              let variant = PhotoVariant(name: "\(parts[1]).\(tail[1])"), !variant.isSourceItself else { return nil }
        return (parts[0], variant, recipe)
    }

    /// Its pixel size for a photo of `source` size: the width asked for, the height in proportion.
    func pixelSize(source: PixelSize) -> PixelSize {
        guard case .width(let width) = size, width < source.width else { return source }
        return PixelSize(width: width, height: max(1, Int((Double(source.height) * Double(width) / Double(source.width)).rounded())))
    }

    /// How the pipeline makes it from the stored photo: the long edge that gives the width, at
    /// each variant's own quality for ``targetDistance``.
    func prepareOptions(source: PixelSize, limits: PhotoLimits) -> PrepareOptions {
        let target = pixelSize(source: source)
        return PrepareOptions(maxDimension: max(target.width, target.height),
                              encoding: EncodingOptions(format: format == .jpeg ? .jpeg : .webp),
                              autoQuality: AutoQuality(targetDistance: Self.targetDistance), limits: limits)
    }
}
