import Crypto
import PhotoPipeline
import Testing
@testable import PhotoCache

@Suite struct CacheKeyTests {
    let source: [UInt8] = Array("not really a photo, only bytes to hash".utf8)

    @Test func sameBytesAndOptionsGiveTheSameKey() {
        let first = CacheKey(source: source, options: PrepareOptions())
        let second = CacheKey(source: source, options: PrepareOptions())
        #expect(first == second)
        #expect(Hex.isDigest(first.value))
        #expect(first.sourceDigest == Hex.string(SHA256.hash(data: source)))
    }

    @Test func differentBytesGiveDifferentKeys() {
        #expect(CacheKey(source: source, options: PrepareOptions()) != CacheKey(source: source + [0], options: PrepareOptions()))
    }

    static let outputShapingChanges: [(String, @Sendable (inout PrepareOptions) -> Void)] = [
        ("maxDimension", { $0.maxDimension = 1024 }),
        ("format", { $0.encoding.format = .webp }),
        ("quality", { $0.encoding.quality = 70 }),
        ("progressive", { $0.encoding.progressive = true }),
        ("lossless", { $0.encoding.lossless = true }),
        ("maxBytes", { $0.maxBytes = 100_000 }),
        ("minQuality", { $0.minQuality = 30 }),
        ("minDimension", { $0.minDimension = 128 }),
        ("background", { $0.background = .black }),
        ("filter", { $0.filter = .lanczos2 }),
        ("decodeHeadroom", { $0.decodeHeadroom = nil }),
    ]

    @Test(arguments: outputShapingChanges)
    func optionsThatShapeTheOutputChangeTheKey(_ change: (name: String, apply: @Sendable (inout PrepareOptions) -> Void)) {
        var options = PrepareOptions()
        change.apply(&options)
        #expect(CacheKey(source: source, options: options) != CacheKey(source: source, options: PrepareOptions()), "\(change.name)")
    }

    @Test func threadsAndLimitsDoNotChangeTheKey() {
        var options = PrepareOptions()
        options.threads = 8
        options.limits = PhotoLimits(maxInputBytes: 1 << 30, maxPixels: 500_000_000)
        #expect(CacheKey(source: source, options: options) == CacheKey(source: source, options: PrepareOptions()))
    }

    @Test func keyMaterialStartsWithTheVersionTagAndNamesEveryOption() {
        var options = PrepareOptions(maxDimension: 1600, encoding: EncodingOptions(format: .webp, quality: 80, progressive: false, lossless: true),
                                     maxBytes: 500_000, minQuality: 35, minDimension: 300, background: RGBColor(red: 1, green: 2, blue: 255),
                                     filter: .lanczos2, decodeHeadroom: 1.5)
        options.jpegInYCbCr = false
        let canonical = CacheKey.canonical(options)
        #expect(canonical == "maxDimension=1600;format=webp;quality=80;progressive=0;lossless=1;maxBytes=500000;minQuality=35;"
                + "minDimension=300;background=0102ff;filter=lanczos2;decodeHeadroom=1.5;jpegInYCbCr=0")
        var hasher = SHA256()
        hasher.update(data: Array("\(CacheKey.version)\n\(canonical)\n".utf8))
        hasher.update(data: Array(SHA256.hash(data: source)))
        #expect(CacheKey(source: source, options: options).value == Hex.string(hasher.finalize()))
    }
}
