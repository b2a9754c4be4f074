import Foundation
@testable import PhotoPipeline
import Testing

/// Inputs the fuzzers (`scripts/fuzz.sh`) found crashing, hanging or breaking an invariant, kept
/// minimised in `Fixtures/fuzz/` (named after the target and what went wrong), each with what it
/// must give now.
@Suite struct FuzzRegressionTests {
    static let folder = Fixtures.packageRoot.appendingPathComponent("Tests/PhotoPipelineTests/Fixtures/fuzz")

    static func fixture(_ name: String) throws -> [UInt8] {
        try FileIO.read(folder.appendingPathComponent(name).path)
    }

    static var all: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    /// `prepare` with the default options refuses `bytes` with `code`, its message naming `detail`.
    private func expectRefusal(_ bytes: [UInt8], code: String, mentioning detail: String? = nil, else failure: Comment,
                               sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            _ = try PhotoPipeline.prepare(bytes)
            Issue.record(failure, sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == code, sourceLocation: sourceLocation)
            if let detail { #expect(error.description.contains(detail), sourceLocation: sourceLocation) }
        }
    }

    /// Prepares the fixture `name`, a HEIC whose alpha grid is built from itself, expects it refused
    /// as a cycle well inside the fuzzer's 2 s (a hang otherwise), and returns its bytes.
    func expectCycleRefusedAtOnce(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
        let bytes = try Self.fixture(name)
        let started = ContinuousClock.now
        expectRefusal(bytes, code: "corrupt", mentioning: "cycle", else: "prepared a HEIC whose alpha grid is built from itself",
                      sourceLocation: sourceLocation)
        #expect(ContinuousClock.now - started < .seconds(2), sourceLocation: sourceLocation)
        return bytes
    }

    /// Found by `prepare` (a crash: an index out of range in the scan-cost walk): a 6 KB
    /// progressive JPEG with 45 scans, one of whose spectra starts past coefficient 63. libjpeg
    /// stops with an error at such a scan; the walk now ends there too, and the scans before it
    /// already cost more than the bound.
    @Test func aScanWhoseSpectrumStartsPast63EndsTheWalk() throws {
        let bytes = try Self.fixture("prepare-jpeg-scan-spectrum-starting-past-63.jpg")
        expectRefusal(bytes, code: "too-costly-to-decode", mentioning: "scans would make the decoder go over",
                      else: "prepared a JPEG whose scans cost more than the bound")
    }

    /// Found by `prepare` (a > 2 s hang; a release build decoded for minutes, growing): the 5 KB
    /// HEIC's primary image is a grid whose alpha image is a grid built from the primary grid itself.
    /// libheif 1.15 follows that cycle without end; the item graph is checked before decoding.
    @Test func aHEICWhoseAlphaIsBuiltFromItselfIsRefusedAtOnce() throws {
        let bytes = try expectCycleRefusedAtOnce("prepare-heif-alpha-grid-built-from-its-own-image.heic")
        let graph = HEIFItemGraph(bytes)
        #expect(graph.primary == 2 && graph.types[2] == "grid" && graph.types[4] == "grid")
        #expect(graph.inputs[4] == [2] && graph.auxiliaries[2] == [4])
    }

    /// Found by `prepare` (a > 2 s hang; a release build made threads until the machine could fork
    /// no more): the same cycle, with the `auxl` reference box declaring 12 MB in a 54-byte `iref`.
    /// libheif 1.15 ignores a reference box's size and reads the reference anyway; the item graph
    /// reads references both ways.
    @Test func aCycleBehindAReferenceBoxOfTheWrongSizeIsRefusedAtOnce() throws {
        let bytes = try expectCycleRefusedAtOnce("prepare-heif-alpha-cycle-behind-a-wrong-reference-size.heic")
        let graph = HEIFItemGraph(bytes)
        #expect(graph.primary == 2 && graph.inputs[4] == [2] && graph.auxiliaries[2] == [4])
        #expect(throws: PhotoError.self) { try PhotoPipeline.decode(bytes) }
    }

    /// Ordinary files pass the graph check: single images, alpha, and the corpus's 512-px-tile grid.
    @Test func ordinaryHEIFItemGraphsPass() throws {
        for name in ["heif-rgb16-10bit.heic", "heif-rgba-alpha.avif", "sample-photo.heic"] {
            try HEIFItemGraph(Fixtures.bytes(name)).check(.heic)
        }
        let alpha = HEIFItemGraph(try Fixtures.bytes("heif-rgba-alpha.avif"))
        #expect(alpha.primary.flatMap { alpha.auxiliaries[$0] }?.count == 1, "the alpha image is found")
        if Corpus.isAvailable {
            let grid = HEIFItemGraph(try Corpus.bytes("heif/gen-lamp-grid512-irot3-exif6.heic"))
            try grid.check(.heic)
            let primary = try #require(grid.primary)
            #expect(grid.types[primary] == "grid" && (grid.inputs[primary]?.count ?? 0) > 1)
        }
    }

    /// Found by `prepare` (a > 2 s hang under ASan; 1.9 GB of memory and 2 s in a release build):
    /// a 716-byte PNG whose fourth iTXt chunk declares 1 885 960 297 bytes. libpng allocates a text
    /// chunk's declared length before reading it; the chunk walk now refuses the file first.
    @Test func aPNGChunkLongerThanTheFileIsRefusedBeforeLibpngAllocatesIt() throws {
        let bytes = try Self.fixture("prepare-png-itxt-declares-1.9-GB.png")
        let started = ContinuousClock.now
        expectRefusal(bytes, code: "truncated", mentioning: "iTXt chunk declares", else: "prepared a PNG with a 1.9 GB iTXt chunk")
        #expect(ContinuousClock.now - started < .milliseconds(500))
        #expect(try PNGChunkReader(bytes).overrunningChunk?.declared == 1_885_960_297)
    }

    /// Found by `probe`, a mistake in its harness rather than the probe: iCCP is zlib-compressed, so
    /// this 2805-byte PNG carries a 3144-byte sRGB profile, which the harness took for a profile
    /// larger than the file. The profile is read whole and kept in the prepared photo.
    @Test func aPNGsCompressedProfileMayBeLargerThanTheFile() throws {
        let bytes = try Self.fixture("probe-png-iccp-inflates-past-the-file-size.png")
        let info = try HeaderProbe.probe(bytes)
        #expect(bytes.count == 2805)
        #expect(info.iccProfile?.count == 3144)
        #expect(info.iccProfile.map { Array($0[36..<40]) } == Array("acsp".utf8), "an ICC profile header")
    }

    /// Found by `probe`: an IHDR declaring 4147336275 × 2309985322 made `PixelSize.pixelCount`
    /// overflow (a trap, so a hostile PNG could crash the server), before the limits could refuse it.
    @Test func aPNGWhoseSidesOverflowThePixelCountIsRefusedAsCorrupt() throws {
        let bytes = try Self.fixture("probe-png-ihdr-sides-overflow-pixel-count.png")
        #expect(throws: PhotoError.self) { try HeaderProbe.probe(bytes) }
        expectRefusal(bytes, code: "corrupt", mentioning: "2147483647", else: "prepared a PNG declaring more than 2^31−1 pixels per side")
    }

    /// Found by `prepare` (as a > 2 s hang under ASan; a segfault in a release build): the grid
    /// descriptor of a 593-byte HEIC declares 28009×28005 while its `ispe` says 64×48, so the pixel
    /// limit passed and libheif 1.15 allocated ~430 MB and crashed. libheif is now told the
    /// largest side the header declares.
    @Test func aHEIFGridLargerThanItsDeclaredSizeIsRefusedNotDecoded() throws {
        let bytes = try Self.fixture("prepare-heif-grid-larger-than-its-ispe.heic")
        #expect(try HeaderProbe.probe(bytes).storedSize == PixelSize(width: 64, height: 48))
        // libheif stops it on its size limit: the usual too-many-pixels refusal.
        expectRefusal(bytes, code: "too-many-pixels", mentioning: "28009×28005", else: "decoded a grid larger than its header")
    }

    /// Found by LeakSanitizer in `prepare`: a PNG refused by the compressed-data evidence check
    /// (after libpng had started reading) leaked libpng's control structures, ~1.6 KB each time.
    /// The refusal itself was right and stays; the leak is checked by the fuzz runs, which replay
    /// these fixtures under LeakSanitizer (`scripts/fuzz.sh` seeds, in CI too).
    @Test func aPNGRefusedByTheEvidenceCheckIsRefusedAsTruncated() throws {
        let bytes = try Self.fixture("prepare-png-refused-by-evidence-check-leaked.png")
        #expect(throws: PhotoError.self) { try PhotoPipeline.decode(bytes) }
        expectRefusal(bytes, code: "truncated", else: "prepared a PNG whose data cannot hold its pixels")
    }

    /// Found by `prepare` on the planar HEIF path: an AVIF whose AV1 sequence header names a
    /// matrix code libheif 1.15 does not know (its `colr` box names a known one). dav1d decoded it
    /// and the planar path prepared it, while libheif's strict decoding refuses it; the planar path
    /// now declines such a picture, so prepare and decode agree (both refuse it, as libheif does).
    @Test func anAVIFWithAnUnknownMatrixInItsBitstreamIsRefusedAsLibheifRefusesIt() throws {
        let bytes = try Self.fixture("prepare-avif-unknown-matrix-in-sequence-header.avif")
        #expect(throws: PhotoError.self) { try PhotoPipeline.decode(bytes) }
        expectRefusal(bytes, code: "corrupt", mentioning: "Unknown NCLX", else: "prepared an AVIF that libheif refuses")
        #expect(!HEIFTileCodec.Picture.known(primaries: 1, transfer: 13, matrix: 3))
        #expect(HEIFTileCodec.Picture.known(primaries: 1, transfer: 13, matrix: 6))
    }

    @Test func thePixelCountSaturatesInsteadOfOverflowing() {
        #expect(PixelSize(width: 1 << 32, height: 1 << 32).pixelCount == Int.max)
        #expect(PixelSize(width: 0xFFFF_FFFF, height: 3).pixelCount == 0xFFFF_FFFF * 3)
        #expect(throws: PhotoError.self) {
            try PhotoLimits.default.check(ImageInfo(type: .heic, storedSize: PixelSize(width: 0xFFFF_FFFF, height: 0xFFFF_FFFF), byteCount: 100))
        }
    }

    /// Every finding, whatever it was, is now prepared or refused as bad input: never a crash.
    @Test(arguments: all) func everyFindingIsPreparedOrRefusedAsBadInput(_ name: String) throws {
        let bytes = try Self.fixture(name)
        let options = PrepareOptions(maxDimension: 256, limits: PhotoLimits(maxInputBytes: 8 << 20, maxPixels: 4_000_000))
        do {
            let photo = try PhotoPipeline.prepare(bytes, options: options)
            #expect(photo.size.longEdge <= 256)
        } catch {
            #expect(error.isBadInput, "\(name): \(error)")
        }
    }
}
