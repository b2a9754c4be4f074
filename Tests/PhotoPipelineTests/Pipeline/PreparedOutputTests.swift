import Crypto
import Foundation
import PhotoPipeline
import Testing

/// What `prepare` writes for the corpus photos, pinned: the SHA-256 of every output (each photo at
/// 2048, 1024 and 512 px, as JPEG and WebP, on one and two threads) is kept in
/// `Fixtures/prepared-output-digests.json`. A change to how the pipeline is put together must
/// leave these bytes alone; a change meant to alter output regenerates the file on purpose:
///
///     PETSPOT_RECORD_PREPARED_OUTPUTS=1 swift test --filter PreparedOutputTests
@Suite("The bytes prepare writes for the corpus photos")
struct PreparedOutputTests {
    struct Case: Sendable, CustomTestStringConvertible, Hashable {
        let photo: String
        let maxDimension: Int
        let format: OutputFormat
        let threads: Int
        var key: String { "\(photo) \(maxDimension) \(format.rawValue) threads=\(threads)" }
        var testDescription: String { key }
    }

    static let photos = [
        "photos/canon-ixus40_1704x2272.jpg",
        "photos/canon-sx60_2048x1536_o6.jpg",
        "photos/canon400d-storm_1920x1280_alpha.png",
        "photos/iphone6_3264x2448.jpg",
        "photos/minolta-z5-wood_2560x1920.webp",
        "photos/nokia83_4608x1976.jpg",
        "photos/olympus-ep3_4032x3024.jpg",
        "photos/sony-rx100m4-crop_4032x3024_o6.jpg",
        "photos/sony-rx100m4_5640x3172_q100.jpg",
        "heif/pillowheif-arrow-iphone8plus.heic",
        "heif/gen-harbour-10bit.heic",
        "heif/gen-harbour-8bit.avif",
        "heif/gen-lamp-grid512-irot3-exif6.heic",
        "jpeg-variants/generated-hopper-progressive.jpg",
        "jpeg-variants/pillow-pil_sample_cmyk.jpg",
    ]

    static let cases: [Case] = photos.flatMap { photo in
        [2048, 1024, 512].flatMap { size in
            [OutputFormat.jpeg, .webp].flatMap { format in
                [1, 2].map { Case(photo: photo, maxDimension: size, format: format, threads: $0) }
            }
        }
    }

    static let fixture = Fixtures.packageRoot.appendingPathComponent("Tests/PhotoPipelineTests/Fixtures/prepared-output-digests.json")
    static let recording = ProcessInfo.processInfo.environment["PETSPOT_RECORD_PREPARED_OUTPUTS"] == "1"
    static let pinned: [String: String] = {
        guard let data = try? Data(contentsOf: fixture) else { return [:] }
        return (try? JSONDecoder().decode([String: String].self, from: data)) ?? [:]
    }()

    static func digest(_ test: Case) throws -> String {
        var options = PrepareOptions(maxDimension: test.maxDimension, encoding: EncodingOptions(format: test.format))
        options.threads = test.threads
        let prepared = try PhotoPipeline.prepare(contentsOf: Corpus.url(test.photo).path, options: options)
        return SHA256.hash(data: prepared.data).map { String(format: "%02x", $0) }.joined()
    }

    @Test("prepare writes the pinned bytes", .enabled(if: Corpus.isAvailable && !recording), arguments: cases)
    func pinnedBytes(_ test: Case) throws {
        let expected = try #require(Self.pinned[test.key], "no pinned digest for \(test.key): record them (see the suite's comment)")
        #expect(try Self.digest(test) == expected)
    }

    @Test("every case has a pinned digest", .enabled(if: !recording))
    func everyCasePinned() {
        #expect(Set(Self.pinned.keys) == Set(Self.cases.map(\.key)))
    }

    @Test("record the digests", .enabled(if: Corpus.isAvailable && recording))
    func record() throws {
        var digests: [String: String] = [:]
        for test in Self.cases { digests[test.key] = try Self.digest(test) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(digests).write(to: Self.fixture)
    }
}
