import Testing
@testable import PhotoPipeline

/// Headers that declare far more pixels than the file holds data for, and scans whose data stops
/// early: refused before an image-sized buffer exists, never padded with grey.
@Suite struct HostileDataTests {
    private static func prepareError(_ bytes: [UInt8]) -> PhotoError? {
        do throws(PhotoError) {
            _ = try PhotoPipeline.prepare(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        ("bomb-png-10000x9999.png", "png"), ("bomb-jpeg-progressive-10000x9999.jpg", "jpeg"),
        ("bomb-jpeg-baseline-10000x9999.jpg", "jpeg"),
    ])
    func hugeHeaderOverAFewBytesIsRefusedAsDamaged(name: String, type: String) throws {
        let bytes = try Fixtures.bytes(name)
        let info = try PhotoPipeline.inspect(bytes)
        #expect(info.storedSize == PixelSize(width: 10000, height: 9999), "within the 100 MP limit, so the header alone passes")
        guard let error = Self.prepareError(bytes) else {
            Issue.record("prepared a file that declares 10000×9999 pixels over \(bytes.count) bytes")
            return
        }
        guard case .corrupt(let mediaType, let detail) = error else {
            Issue.record("expected corrupt (the file ends properly but holds too little data), got \(error)")
            return
        }
        #expect(mediaType.rawValue == type)
        #expect(detail.contains("declares 10000×9999 pixels"), "\(detail)")
        #expect(throws: error) { try PhotoPipeline.decode(bytes) }
    }

    @Test func jpegScanWhoseDataStopsEarlyIsTruncatedNotGrey() throws {
        // djpeg decodes it with "Corrupt JPEG data: premature end of data segment" and a grey lower half.
        let bytes = try Fixtures.bytes("bad-scan-ends-early.jpg")
        let expected = PhotoError.truncated(.jpeg, detail: "libjpeg-turbo: Corrupt JPEG data: premature end of data segment")
        #expect(Self.prepareError(bytes) == expected)
        #expect(throws: expected) { try PhotoPipeline.decode(bytes) }
    }

    @Test func extraneousBytesBeforeAMarkerAreStillTolerated() throws {
        var bytes = try Fixtures.bytes("jpeg-baseline.jpg")
        let dqt = try #require((2..<bytes.count).first { bytes[$0 - 1] == 0xFF && bytes[$0] == 0xDB }) - 1
        bytes.insert(contentsOf: [0x12, 0x34, 0x56], at: dqt)
        let pixels = try PhotoPipeline.decode(bytes)
        #expect((pixels.width, pixels.height) == (640, 480))
        #expect(pixels == (try PhotoPipeline.decode(try Fixtures.bytes("jpeg-baseline.jpg"))))
    }

    /// The arithmetic the refusal rests on: what libpng inflates is exactly the filtered rows of every pass.
    @Test(arguments: ["png-gray8.png", "png-gray16.png", "png-palette.png", "png-rgb16.png", "png-rgba-alpha.png",
                      "png-interlaced.png", "png-gray-alpha.png", "png-stripes-1px.png"])
    func filteredByteCountMatchesTheInflatedData(name: String) throws {
        let bytes = try Fixtures.bytes(name)
        let chunks = try PNGChunkReader(bytes)
        let header = try #require(chunks.header)
        #expect(Zlib.inflatedSize(of: chunks.imageData, in: bytes, limit: .max) == PNGDataEvidence.filteredBytes(header))
    }

    @Test func compressibleDataCutShortIsCountedBeforeDecoding() throws {
        // 8000×8000 gray (64 MB of rows), 96 KB of noise rows: too much data for the ratio bound alone.
        var state: UInt32 = 1
        var rows: [UInt8] = []
        for _ in 0..<12 {
            rows.append(0)
            for _ in 0..<8000 {
                state = state &* 1_664_525 &+ 1_013_904_223
                rows.append(UInt8(state >> 24))
            }
        }
        let cut = PNGBuilder.png(width: 8000, height: 8000, colorType: 0, idat: Zlib.deflate(rows), complete: false)
        guard let error = Self.prepareError(cut) else {
            Issue.record("prepared a PNG whose data stops after 12 of 8000 rows")
            return
        }
        guard case .truncated(.png, let detail) = error else {
            Issue.record("expected truncated PNG, got \(error)")
            return
        }
        #expect(detail.contains("declares 8000×8000 pixels"), "\(detail)")
    }

    @Test func wholeCompressibleImagePassesTheCheck() throws {
        let zeros = [UInt8](repeating: 0, count: 8000 * 8001)
        let bytes = PNGBuilder.png(width: 8000, height: 8000, colorType: 0, idat: Zlib.deflate(zeros))
        #expect(throws: Never.self) { try PNGDataEvidence.check(bytes, chunks: try PNGChunkReader(bytes)) }
    }
}
