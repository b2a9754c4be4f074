import Foundation
import Testing
@testable import PhotoPipeline

/// A JPEG whose scans would make the decoder go over its blocks hundreds of times is refused from
/// its scan headers, before any decoding, while every progressive file real encoders write passes.
@Suite struct ScanCostTests {
    static let bombs = ["bomb-jpeg-scans-8192x6100.jpg", "bomb-jpeg-scans-1200x2048.jpg", "bomb-jpeg-scans-legal-512x512.jpg"]

    /// libjpeg-turbo's cjpeg and mozjpeg (libvips) progressive files, made by `Fixtures/progressive/make.py`.
    static let encoderFolder = Fixtures.packageRoot.appendingPathComponent("Tests/PhotoPipelineTests/Fixtures/progressive")
    static var encoderFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: encoderFolder.path)) ?? []).filter { $0.hasSuffix(".jpg") }.sorted()
    }

    /// A 64×64 progressive 4:4:4 JPEG made by hand: its DC scan and `scans` first AC scans of the band 1–63.
    static func progressive(scans: Int) -> [UInt8] {
        func segment(_ marker: UInt8, _ body: [UInt8]) -> [UInt8] { [0xFF, marker, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body }
        var bytes: [UInt8] = [0xFF, 0xD8] + segment(0xDB, [0] + [UInt8](repeating: 1, count: 64))
        bytes += segment(0xC2, [8, 0, 64, 0, 64, 3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0])
        bytes += segment(0xC4, [0x00] + [1] + [UInt8](repeating: 0, count: 15) + [0])
        bytes += segment(0xC4, [0x10] + [0, 0, 0, 15] + [UInt8](repeating: 0, count: 12) + (0..<15).map { UInt8($0 << 4) })
        bytes += segment(0xDA, [3, 1, 0, 2, 0, 3, 0, 0, 0, 0]) + [UInt8](repeating: 0, count: 24)
        for index in 0..<scans {
            // EOB6 (symbol 0x60, code 0110) and 6 bits: a run of 64 blocks, then 1s to the byte.
            bytes += segment(0xDA, [1, UInt8(index % 3 + 1), 0, 1, 63, 0]) + [0b0110_0000, 0b0011_1111]
        }
        return bytes + [0xFF, 0xD9]
    }

    static func cost(_ bytes: [UInt8]) -> JPEGScanCost? {
        bytes.withUnsafeBufferPointer { JPEGScanCost(JPEGByteWindow(.memory($0))) }
    }

    @Test(arguments: bombs)
    func aScanBombIsRefusedAtOnceFromMemoryAndFromItsFile(name: String) throws {
        let bytes = try Fixtures.bytes(name)
        for attempt in 0..<2 {
            let started = ContinuousClock.now
            do {
                _ = attempt == 0 ? try PhotoPipeline.prepare(bytes) : try PhotoPipeline.prepare(contentsOf: Fixtures.url(name).path)
                Issue.record("prepared \(name)")
            } catch {
                guard case .tooCostlyToDecode(.jpeg, let detail) = error else {
                    Issue.record("expected too-costly-to-decode, got \(error)")
                    continue
                }
                #expect(detail.contains("scans would make the decoder go over its"), "\(detail)")
                #expect(error.description.contains("save it again as an ordinary JPEG"), "\(error.description)")
            }
            // libjpeg takes seconds over the large one; the scan headers are read in milliseconds.
            #expect(ContinuousClock.now - started < .milliseconds(50), "\(name): \(ContinuousClock.now - started)")
        }
        #expect(throws: PhotoError.self) { try PhotoPipeline.decode(bytes) }
    }

    /// A scan whose spectrum starts past coefficient 63 is where libjpeg stops with an error:
    /// the walk counts the scans before it, and a file that puts it after a bomb's scans is
    /// still refused for them (a fuzzer found the walk indexing past its 64 coefficients there).
    @Test func aSpectrumPastTheLastCoefficientEndsTheWalk() throws {
        func withBadScanAfter(_ scans: Int) -> [UInt8] {
            var bytes = Self.progressive(scans: scans)
            bytes.removeLast(2)
            return bytes + [0xFF, 0xDA, 0, 8, 1, 1, 0, 200, 200, 0, 0, 0, 0xFF, 0xD9]
        }
        let few = try #require(Self.cost(withBadScanAfter(2)))
        #expect(few.scans == 3, "the DC scan and two AC scans, then the bad one ends it")
        let many = try #require(Self.cost(withBadScanAfter(2000)))
        #expect(many.unitsPerBlock > JPEGScanCost.maximumUnitsPerBlock)
        #expect(throws: PhotoError.self) { try PhotoPipeline.prepare(withBadScanAfter(2)) }
    }

    @Test func theSmallBombIsNeverAlreadyPrepared() throws {
        // No metadata, upright, 2048 px long edge, ends at EOI, and libjpeg decodes it (after
        // 463 passes over every block): everything the check asked for, but its cost.
        let bytes = try Fixtures.bytes("bomb-jpeg-scans-1200x2048.jpg")
        let frame = try #require(JPEGSegments.frameIfMetadataFree(bytes))
        #expect(frame.size == PixelSize(width: 1200, height: 2048))
        let started = ContinuousClock.now
        #expect(!PhotoPipeline.isAlreadyPrepared(bytes, options: PrepareOptions()))
        #expect(try PhotoPipeline.alreadyPrepared(contentsOf: Fixtures.url("bomb-jpeg-scans-1200x2048.jpg").path, options: PrepareOptions()) == nil)
        #expect(ContinuousClock.now - started < .milliseconds(100))
    }

    @Test func theCountIsWhatLibjpegVisits() throws {
        let large = try #require(Self.cost(try Fixtures.bytes("bomb-jpeg-scans-8192x6100.jpg")))
        // 1024 × 763 blocks per component; one DC scan of all three, 463 first AC scans of one each.
        #expect(large.scans == 464)
        #expect(large.blocks == 3 * 1024 * 763)
        #expect(large.units == Double((3 + 463) * 1024 * 763))
        let small = try #require(Self.cost(try Fixtures.bytes("bomb-jpeg-scans-1200x2048.jpg")))
        // Refinement scans of the band 1–63 cost 1 + 63/14 units a block; every coefficient ends at
        // bit 0, so libjpeg does not smooth.
        let perComponent = Double(150 * 256)
        #expect(small.units == perComponent * 3 + 463 * perComponent * (1 + 63.0 / 14))
        // Only a DC scan: every AC coefficient coarse, so every block smoothed.
        let dcOnly = try #require(Self.cost(Self.progressive(scans: 0)))
        #expect(dcOnly.units == Double(3 * 8 * 8) * (1 + JPEGScanCost.smoothingUnits))
    }

    @Test(arguments: encoderFiles)
    func realEncodersProgressiveFilesPass(name: String) throws {
        let bytes = try FileIO.read(Self.encoderFolder.appendingPathComponent(name).path)
        let cost = try #require(Self.cost(bytes))
        #expect(cost.scans >= 2 && cost.scans <= 12, "\(name): \(cost.scans) scans")
        #expect(cost.unitsPerBlock <= JPEGScanCost.maximumUnitsPerBlock, "\(name): \(cost.unitsPerBlock)")
        let prepared = try PhotoPipeline.prepare(bytes, options: PrepareOptions(maxDimension: 160))
        #expect(prepared.size.longEdge == 160)
    }

    @Test func libjpegsStandardScriptCostsWhatTheDocumentationSays() throws {
        let expected = ["cjpeg-444.jpg": 10.7, "cjpeg-420.jpg": 12.8, "cjpeg-grey.jpg": 15.0]
        for (name, perBlock) in expected {
            let cost = try #require(Self.cost(try FileIO.read(Self.encoderFolder.appendingPathComponent(name).path)))
            #expect(abs(cost.unitsPerBlock - perBlock) < 0.1, "\(name): \(cost.unitsPerBlock)")
        }
    }

    @Test(arguments: [(1, 75), (3, 75), (3, 95)])
    func ourOwnProgressiveOutputPasses(channels: Int, quality: Int) throws {
        let source = try PhotoPipeline.decode(try Fixtures.bytes("jpeg-baseline.jpg"))
        let pixels = channels == 3 ? source : PixelBuffer(width: source.width, height: source.height, channels: 1,
                                                           pixels: stride(from: 0, to: source.pixels.count, by: 3).map { source.pixels[$0] })
        let jpeg = try PipelineStages.encode(pixels, options: EncodingOptions(quality: quality, progressive: true), iccProfile: nil)
        let cost = try #require(Self.cost(jpeg))
        #expect(cost.scans >= 6 && cost.unitsPerBlock <= JPEGScanCost.maximumUnitsPerBlock, "\(cost)")
        #expect(throws: Never.self) { try PhotoPipeline.prepare(jpeg) }
    }

    /// Every valid JPEG of the corpus and its large camera photos.
    @Test func progressiveFilesOfTheCorpusPass() throws {
        guard let root = Corpus.root else { return }
        let photos = ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("photos").path)) ?? [])
            .filter { $0.hasSuffix(".jpg") }.map { "photos/" + $0 }
        let paths = Corpus.expectations.filter { $0.valid && $0.mime == "image/jpeg" }.map(\.path) + photos
        var progressive = 0
        for path in paths {
            let bytes = try Corpus.bytes(path)
            guard JPEGScanCost.needsWalk(Array(bytes.prefix(JPEGFileHeader.firstRead))) else { continue }
            progressive += 1
            let cost = try #require(Self.cost(bytes), "\(path)")
            #expect(cost.unitsPerBlock <= JPEGScanCost.maximumUnitsPerBlock, "\(path): \(cost.unitsPerBlock)")
        }
        #expect(progressive >= 3)
    }

    @Test func aBaselineFileIsNotWalked() throws {
        #expect(!JPEGScanCost.needsWalk(try Fixtures.bytes("jpeg-baseline.jpg")))
        #expect(JPEGScanCost.needsWalk(try Fixtures.bytes("jpeg-progressive.jpg")))
    }
}
