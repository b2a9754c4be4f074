import Crypto
import PhotoPipeline

/// The content address of a prepared photo: SHA-256 over a version tag, the options that shape
/// the output, and the digest of the source bytes.
///
/// Options that do not change the output (`threads`, `limits`) are left out, so preparing the same
/// photo with more threads or a higher input limit is still a hit. Bumping ``version`` invalidates
/// every key at once, for a pipeline change that alters the output.
struct CacheKey: Sendable, Hashable, CustomStringConvertible {
    /// Goes first into every key's hash; change it when the pipeline's output changes (v2: JPEG to
    /// JPEG is resized in YCbCr planes).
    static let version = "petspot-photo-cache-v2"

    /// 64 lower-case hex characters.
    let value: String
    /// SHA-256 (hex) of the source bytes alone.
    let sourceDigest: String

    /// Computes the key of `source` prepared with `options`; the source bytes are hashed once.
    init(source: [UInt8], options: PrepareOptions) {
        let sourceHash = SHA256.hash(data: source)
        sourceDigest = Hex.string(sourceHash)
        var hasher = SHA256()
        hasher.update(data: Array("\(Self.version)\n\(Self.canonical(options))\n".utf8))
        hasher.update(data: Array(sourceHash))
        value = Hex.string(hasher.finalize())
    }

    /// The output-shaping options as one line of `name=value` pairs in a fixed order.
    static func canonical(_ options: PrepareOptions) -> String {
        let encoding = options.encoding
        let background = Hex.string([options.background.red, options.background.green, options.background.blue])
        let fields: [(String, String)] = [
            ("maxDimension", String(options.maxDimension)),
            ("format", encoding.format.rawValue),
            // A quality chosen per photo is named by its target, so the key follows the choice's rule.
            ("quality", options.autoQuality.map { "auto:\($0.targetDistance):\($0.qualities.lowerBound)-\($0.qualities.upperBound)" }
                ?? String(encoding.quality)),
            ("progressive", encoding.progressive ? "1" : "0"),
            ("lossless", encoding.lossless ? "1" : "0"),
            ("maxBytes", options.maxBytes.map(String.init) ?? "-"),
            ("minQuality", String(options.minQuality)),
            ("minDimension", String(options.minDimension)),
            ("background", background),
            ("filter", options.filter.rawValue),
            ("decodeHeadroom", options.decodeHeadroom.map { String($0) } ?? "-"),
            ("jpegInYCbCr", options.jpegInYCbCr ? "1" : "0"),
        ]
        // Named only when not the default, so the keys of photos cached before it existed hold.
        let effort = encoding.effort == .normal ? [] : [("effort", encoding.effort.rawValue)]
        return (fields + effort).map { "\($0.0)=\($0.1)" }.joined(separator: ";")
    }

    var description: String { value }
}
