import Foundation
import Testing
@testable import PhotoPipeline

/// Progressive JPEGs are decoded and resized as luma and chroma at once, by two decompressors that
/// each read their own scans, to exactly the planes (and JPEG bytes) the single decoder gives.
@Suite(.enabled(if: Corpus.isAvailable, "set PETSPOT_CORPUS to the shared corpus"))
struct ProgressiveJPEGTwoCoreTests {
    /// Every progressive YCbCr JPEG in the corpus whose scans refine every coefficient fully.
    static let corpusFiles = ["photos/sony-rx100m4_5640x3172_q100.jpg", "camera-exif/nikon-D300-lens-data.jpg",
                              "jpeg-variants/generated-hopper-progressive.jpg"]

    /// The olympus photo re-encoded by our own progressive encoder (libjpeg's default script, 4:4:4).
    static func encodedProgressive(maxDimension: Int = 1600) throws -> [UInt8] {
        let options = PrepareOptions(maxDimension: maxDimension, encoding: EncodingOptions(format: .jpeg, quality: 95, progressive: true))
        return try PhotoPipeline.prepare(Corpus.bytes("photos/olympus-ep3_4032x3024.jpg"), options: options).data
    }

    static func planes(_ decoded: DecodedImage) -> [[UInt8]] {
        guard let image = decoded.planes else { return [] }
        return image.planes.map(\.bytes)
    }

    /// At every DCT scale, as decoded and resized, upright and turned: the split planes are the single
    /// decoder's, byte for byte.
    @Test(arguments: corpusFiles + ["encoded"])
    func splitGivesTheSinglePlanesByteForByte(_ name: String) throws {
        let bytes = name == "encoded" ? try Self.encodedProgressive() : try Corpus.bytes(name)
        let info = try PhotoPipeline.inspect(bytes)
        let script = try #require(bytes.withUnsafeBufferPointer { JPEGScanScript(JPEGByteWindow(.memory($0))) }, "\(name) is not split")
        #expect(script.isComplete)
        for scale in [1, 2, 4, 8] {
            let decoded = PixelSize(width: (info.storedSize.width + scale - 1) / scale, height: (info.storedSize.height + scale - 1) / scale)
            let resized = PixelSize(width: max(1, decoded.width * 2 / 3), height: max(1, decoded.height * 2 / 3))
            for (target, orientation) in [(decoded, ExifOrientation.up), (resized, .up), (resized, .right), (resized, .downMirrored)] {
                let resize = ResizeRequest(target: target, minimumLongEdge: decoded.longEdge, threads: 2, orientation: orientation)
                var planar = PlanarOutput(subsampling: .half, twoDecoderMinimumPixels: 0)
                let split = try #require(bytes.withUnsafeBufferPointer {
                    JPEGDecoder().decodeByComponent(.memory($0), info: info, scale: scale, resize: resize, planar: planar)
                }, "\(name) at 1/\(scale) → \(target) \(orientation) was not split")
                planar.twoDecoderMinimumPixels = nil
                let single = try JPEGDecoder().decodeResized(bytes, info: info, resize: resize, planar: planar)
                #expect(split.decodedSize == single.decodedSize)
                let a = Self.planes(split), b = Self.planes(single)
                #expect(a.count == 3 && a == b, "\(name) at 1/\(scale) → \(target) \(orientation): the split planes differ")
            }
        }
    }

    /// The whole prepare, from memory and streamed from the file, to JPEG (encoded alongside) and
    /// WebP: the same bytes split or not.
    @Test func preparedPhotosAreTheSameBytes() throws {
        let name = "photos/sony-rx100m4_5640x3172_q100.jpg"
        let bytes = try Corpus.bytes(name)
        for (size, format) in [(2048, OutputFormat.jpeg), (1024, .jpeg), (640, .webp)] {
            var options = PrepareOptions(maxDimension: size, encoding: EncodingOptions(format: format), threads: 2)
            let split = try PhotoPipeline.prepare(bytes, options: options)
            let fromFile = try PhotoPipeline.prepare(contentsOf: Corpus.url(name).path, options: options)
            options.twoDecoderMinimumPixels = nil
            let single = try PhotoPipeline.prepare(bytes, options: options)
            #expect(split.data == single.data, "\(name) → \(size) px \(format)")
            #expect(fromFile.data == single.data, "\(name) → \(size) px \(format), streamed from the file")
        }
    }

    /// What each decompressor reads: the DC scans and its own components' AC scans, the segments
    /// between them, and the end.
    @Test func eachStreamKeepsTheDCScansAndItsOwnACScans() throws {
        let bytes = try Corpus.bytes("photos/sony-rx100m4_5640x3172_q100.jpg")
        let script = try #require(bytes.withUnsafeBufferPointer { JPEGScanScript(JPEGByteWindow(.memory($0))) })
        let scans = script.pieces.compactMap { piece -> (JPEGScanScript.Scan, Range<Int>)? in
            if case .scan(let scan, let range) = piece { return (scan, range) }
            return nil
        }
        // libjpeg's default script: 2 DC scans, 5 luma AC scans, 2 per chroma component.
        #expect(scans.count == 10)
        #expect(scans.filter(\.0.isDC).count == 2)
        #expect(scans.filter { !$0.0.isDC && $0.0.components == [0] }.count == 4)
        let luma = script.ranges(keeping: [0]), chroma = script.ranges(keeping: [1, 2])
        func holds(_ ranges: [Range<Int>], _ range: Range<Int>) -> Bool { ranges.contains { $0.contains(range.lowerBound) && $0.upperBound >= range.upperBound } }
        for (scan, range) in scans {
            #expect(holds(luma, range) == (scan.isDC || scan.components == [0]))
            #expect(holds(chroma, range) == (scan.isDC || scan.components != [0]))
        }
        #expect(luma.first?.lowerBound == 0 && chroma.first?.lowerBound == 0)
        #expect(Array(bytes[(luma.last!.upperBound - 2)..<luma.last!.upperBound]) == [0xFF, 0xD9])
        #expect(luma.map(\.count).reduce(0, +) + chroma.map(\.count).reduce(0, +) > bytes.count)
    }

    /// A script that leaves coefficients coarse is not split (libjpeg smooths such blocks, which
    /// needs every component): without its last luma refinement the file is decoded whole, and it
    /// decodes.
    @Test func anIncompleteScriptIsNotSplit() throws {
        let bytes = try Self.encodedProgressive(maxDimension: 1200)
        let script = try #require(bytes.withUnsafeBufferPointer { JPEGScanScript(JPEGByteWindow(.memory($0))) })
        guard case .scan(_, let last)? = script.pieces.last(where: {
            if case .scan(let scan, _) = $0 { return scan.components == [0] } else { return false }
        }) else { Issue.record("no luma scan"); return }
        let cut = Array(bytes[..<last.lowerBound] + bytes[last.upperBound...])
        #expect(cut.withUnsafeBufferPointer { JPEGScanScript(JPEGByteWindow(.memory($0))) } == nil)
        let prepared = try PhotoPipeline.prepare(cut, options: PrepareOptions(maxDimension: 800, threads: 2))
        #expect(prepared.size.longEdge == 800)
    }

    /// libjpeg keeps the low bit of the *last* scan of each coefficient: a coarse first-pass scan
    /// repeated after the refinements leaves its band coarse (and smoothed), so the file is not
    /// split; it gives the single decoder's bytes.
    @Test func aCoarseScanAfterTheRefinementsIsNotSplit() throws {
        let bytes = try Self.encodedProgressive(maxDimension: 1200)
        let script = try #require(bytes.withUnsafeBufferPointer { JPEGScanScript(JPEGByteWindow(.memory($0))) })
        guard let index = script.pieces.firstIndex(where: {
            if case .scan(let scan, _) = $0 { return !scan.isDC && scan.successiveLow > 0 } else { return false }
        }), case .scan(_, let range) = script.pieces[index] else { Issue.record("no coarse AC scan"); return }
        // With the Huffman tables defined just before it (libjpeg writes optimised tables per scan).
        var start = range.lowerBound
        if index > 0, case .segments(let tables) = script.pieces[index - 1] { start = tables.lowerBound }
        let end = bytes.count - 2
        let recoarsened = Array(bytes[..<end] + bytes[start..<range.upperBound] + bytes[end...])
        #expect(recoarsened.withUnsafeBufferPointer { JPEGScanScript(JPEGByteWindow(.memory($0))) } == nil)
        var options = PrepareOptions(maxDimension: 800, threads: 2)
        let prepared = try PhotoPipeline.prepare(recoarsened, options: options)
        options.twoDecoderMinimumPixels = nil
        #expect(try PhotoPipeline.prepare(recoarsened, options: options).data == prepared.data)
    }

    /// More scans than one decoder accepts are not split into two streams that would each stay under
    /// the limit: the file fails as the single decoder fails it.
    @Test func aFileWithTooManyScansIsNotSplit() throws {
        let bytes = try Self.encodedProgressive(maxDimension: 1200)
        let script = try #require(bytes.withUnsafeBufferPointer { JPEGScanScript(JPEGByteWindow(.memory($0))) })
        guard case .scan(_, let last)? = script.pieces.last(where: { if case .scan = $0 { true } else { false } }) else {
            Issue.record("no scan"); return
        }
        let end = bytes.count - 2
        var many = Array(bytes[..<end])
        for _ in 0..<(Int(JPEGStream.maxScans) + 1 - script.scanCount) { many += bytes[last] }
        many += bytes[end...]
        #expect(many.withUnsafeBufferPointer { JPEGScanScript(JPEGByteWindow(.memory($0))) } == nil)
        let prepared = Result { () throws(PhotoError) in try PhotoPipeline.prepare(many, options: PrepareOptions(maxDimension: 800, threads: 2)) }
        guard case .failure(let error) = prepared else { Issue.record("a file of \(JPEGStream.maxScans + 1) scans was prepared"); return }
        #expect("\(error)".contains("scans"), "\(error)")
    }

    /// Damage is reported as the single decoder reports it: a cut-short or corrupted file falls back to it.
    @Test func damagedFilesFailAsTheyAlwaysDid() throws {
        let original = try Corpus.bytes("photos/sony-rx100m4_5640x3172_q100.jpg")
        var corrupted = original
        for offset in stride(from: original.count / 3, to: original.count * 2 / 3, by: 997) { corrupted[offset] ^= 0x5A }
        for damaged in [Array(original.prefix(original.count * 3 / 4)), Array(original.prefix(original.count / 5)), corrupted] {
            let (split, single) = TwoDecoderParity.outcomes(damaged)
            guard case .failure(let a) = split, case .failure(let b) = single else {
                Issue.record("a damaged file was prepared: \(split), \(single)")
                continue
            }
            #expect(a == b)
        }
    }

    /// Baseline files and small files are left to the decoders they always had.
    @Test func baselineAndSmallFilesAreNotSplit() throws {
        let baseline = try Corpus.bytes("photos/olympus-ep3_4032x3024.jpg")
        #expect(baseline.withUnsafeBufferPointer { JPEGScanScript(JPEGByteWindow(.memory($0))) } == nil)
        let small = try Corpus.bytes("jpeg-variants/generated-hopper-progressive.jpg")
        let info = try PhotoPipeline.inspect(small)
        let resize = ResizeRequest(target: info.storedSize, threads: 2)
        #expect(small.withUnsafeBufferPointer {
            JPEGDecoder().decodeByComponent(.memory($0), info: info, scale: 1, resize: resize, planar: PlanarOutput(subsampling: .half))
        } == nil)
    }
}
