import Foundation
import Testing
@testable import PhotoPipeline

/// Baseline JPEGs with restart markers at MCU rows are decoded and resized as two row bands on two
/// cores, to exactly the planes the single decoder gives; their JPEG is encoded in two
/// parts, one per band, joined at a restart marker (``JPEGPlanesEncoder``): the same pixels.
@Suite(.enabled(if: Corpus.isAvailable, "set PETSPOT_CORPUS to the shared corpus"))
struct RestartMarkerJPEGTwoCoreTests {
    /// Every corpus JPEG of at least ``PrepareOptions/defaultTwoDecoderMinimumPixels`` the cut
    /// applies to (3-component baseline, interval dividing an MCU row).
    static let cuttable = [
        "photos/olympus-ep3_4032x3024.jpg", "photos/iphone6_3264x2448.jpg", "camera-exif/samsung-SM-G930F-phone.jpg",
    ]
    /// Cuttable too, but too small to be worth two threads by default.
    static let small = ["camera-exif/exiforg-nikon-e950.jpg", "camera-exif/pillow-invalid-exif.jpg", "icc/chromium-red-at-12-oclock-with-color-profile.jpg",
                        "jpeg-variants/quirk-pillow-truncated_app14.jpg"]

    static func planes(_ decoded: DecodedImage) -> [[UInt8]] {
        guard let image = decoded.planes else { return [] }
        return image.planes.map(\.bytes)
    }

    /// At every DCT scale, as decoded and resized (the resize's filter reaches across the split),
    /// upright and turned: the banded planes are the single decoder's, byte for byte.
    @Test(arguments: cuttable + small)
    func bandsGiveTheSinglePlanesByteForByte(_ name: String) throws {
        let bytes = try Corpus.bytes(name)
        let info = try PhotoPipeline.inspect(bytes)
        let layout = try #require(JPEGRestartBands.layout(Array(bytes.prefix(JPEGFileHeader.firstRead))),
                                  "\(name) is not cut")
        let cut = try #require(bytes.withUnsafeBufferPointer {
            JPEGRestartBands.balancedCut(JPEGByteWindow(.memory($0)), header: Array(bytes.prefix(JPEGFileHeader.firstRead)), layout: layout)
        })
        let bandHeight = try #require(JPEGRestartBands.layout(cut.header)).height
        #expect(cut.row * layout.mcuHeight + bandHeight == info.storedSize.height, "\(name): the band's frame height")
        for scale in [1, 2, 4, 8] {
            let decoded = PixelSize(width: (info.storedSize.width + scale - 1) / scale, height: (info.storedSize.height + scale - 1) / scale)
            let resized = PixelSize(width: decoded.width * 2 / 3, height: decoded.height * 2 / 3)
            for (target, orientation) in [(decoded, ExifOrientation.up), (resized, .up), (resized, .right), (resized, .downMirrored)] {
                let resize = ResizeRequest(target: target, minimumLongEdge: decoded.longEdge, threads: 2, orientation: orientation)
                var planar = PlanarOutput(subsampling: .half, twoDecoderMinimumPixels: 0)
                // Decoded in bands for certain (the decoder falls back to one stream when bands fail).
                let banded = bytes.withUnsafeBufferPointer {
                    JPEGDecoder().decodeBanded(.memory($0), scale: scale, resize: resize, planar: planar)
                }
                // In bands, except a small file decoded tiny (25 rows: the filter of the bottom's first
                // chroma row would reach into the first MCU row).
                guard let banded else {
                    #expect(Self.small.contains(name) && decoded.height < 64, "\(name) at 1/\(scale) → \(target) \(orientation) was not decoded in bands")
                    continue
                }
                planar.twoDecoderMinimumPixels = nil
                let single = try JPEGDecoder().decodeResized(bytes, info: info, resize: resize, planar: planar)
                #expect(banded.decodedSize == single.decodedSize)
                let a = Self.planes(banded), b = Self.planes(single)
                #expect(a.count == 3 && a == b, "\(name) at 1/\(scale) → \(target) \(orientation): the banded planes differ")
            }
        }
    }

    /// The whole prepare, from memory and from a file, to JPEG (encoded alongside, in two parts
    /// joined at a restart marker: ``JPEGPlanesEncoder``) and WebP: the same pixels with or
    /// without bands, and the same bytes from memory and from the file.
    @Test func preparedPhotosAreTheSamePictures() throws {
        for name in Self.cuttable {
            let bytes = try Corpus.bytes(name)
            for (size, format) in [(2048, OutputFormat.jpeg), (1024, .jpeg), (640, .webp)] {
                var options = PrepareOptions(maxDimension: size, encoding: EncodingOptions(format: format), threads: 2)
                let banded = try PhotoPipeline.prepare(bytes, options: options)
                let fromFile = try PhotoPipeline.prepare(contentsOf: Corpus.url(name).path, options: options)
                options.twoDecoderMinimumPixels = nil
                let single = try PhotoPipeline.prepare(bytes, options: options)
                // Bools: a failed `==` on arrays this long would have the test library diff them for minutes.
                let streamedAlike = fromFile.data == banded.data
                #expect(streamedAlike, "\(name) → \(size) px \(format), streamed from the file")
                if format == .jpeg {
                    #expect(JPEGScanData.restartMarkers(banded.data) == 1, "\(name) → \(size) px: the halves are joined at one restart marker")
                    let samePixels = try PhotoPipeline.decode(banded.data).pixels == PhotoPipeline.decode(single.data).pixels
                    #expect(samePixels, "\(name) → \(size) px")
                } else {
                    let sameBytes = banded.data == single.data
                    #expect(sameBytes, "\(name) → \(size) px \(format)")
                }
            }
        }
    }

    /// Damage is reported as the single decoder reports it: a cut-short or corrupted band, or a
    /// restart marker out of sequence, falls back to it.
    @Test func damagedFilesFailAsTheyAlwaysDid() throws {
        let original = try Corpus.bytes("photos/olympus-ep3_4032x3024.jpg")
        var corrupted = original
        for offset in stride(from: original.count / 3, to: original.count * 2 / 3, by: 997) { corrupted[offset] ^= 0x5A }
        // The first restart marker after a quarter of the file renamed (above the cut, which the
        // balance puts near the middle: the cut refuses the file), and after two thirds (below it:
        // the bottom band's decompressor finds it); either way the single decoder reports it.
        func misnumbered(after fraction: Double) -> [UInt8] {
            var bytes = original
            let from = Int(Double(original.count) * fraction)
            if let at = (from..<original.count - 1).first(where: { original[$0] == 0xFF && (0xD0...0xD7).contains(original[$0 + 1]) }) {
                bytes[at + 1] = 0xD0 + (original[at + 1] - 0xD0 + 3) % 8
            }
            return bytes
        }
        let above = misnumbered(after: 0.25), below = misnumbered(after: 2.0 / 3)
        #expect(above != original && below != original)
        #expect(above.withUnsafeBufferPointer {
            JPEGRestartBands.balancedCut(JPEGByteWindow(.memory($0)), header: Array(original.prefix(JPEGFileHeader.firstRead)),
                                         layout: JPEGRestartBands.layout(Array(original.prefix(JPEGFileHeader.firstRead)))!)
        } == nil, "a misnumbered marker above the cut refuses it")
        for damaged in [Array(original.prefix(original.count * 3 / 4)), corrupted, above, below] {
            let (banded, single) = TwoDecoderParity.outcomes(damaged)
            guard case .failure(let a) = banded, case .failure(let b) = single else {
                Issue.record("a damaged file was prepared: \(banded), \(single)")
                continue
            }
            #expect(a == b)
        }
    }

    /// A band may begin at any MCU row: after exactly the markers of the rows above it, checked
    /// one by one from the scan's start, its decompressor told the number of the first marker it
    /// meets. A misnumbered marker above the cut refuses it.
    @Test func theBandBeginsAfterItsRowsMarkers() throws {
        let bytes = try Corpus.bytes("photos/olympus-ep3_4032x3024.jpg")
        let header = Array(bytes.prefix(JPEGFileHeader.firstRead))
        let layout = try #require(JPEGRestartBands.layout(header))
        // 4:2:2: MCUs of 16 × 8 pixels, 252 a row, a marker every 4: 63 intervals a row.
        #expect(layout.mcuRows == 378 && layout.intervalsPerRow == 63)
        let markers = Self.restartMarkers(bytes, from: layout.scanData)
        for row in [1, 8, 183, 184, 189, 192, 377] {
            let cut = try #require(bytes.withUnsafeBufferPointer {
                JPEGRestartBands.cut(JPEGByteWindow(.memory($0)), header: header, layout: layout, firstRow: row)
            })
            #expect(cut.row == row && cut.dataStart == markers[row * 63 - 1] + 2, "row \(row)")
            #expect(bytes[markers[row * 63] + 1] == 0xD0 + UInt8(cut.firstRestart), "row \(row): the band's first marker")
        }
        for row in [0, 378] {
            #expect(bytes.withUnsafeBufferPointer {
                JPEGRestartBands.cut(JPEGByteWindow(.memory($0)), header: header, layout: layout, firstRow: row)
            } == nil, "row \(row) begins no band")
        }
        var misnumbered = bytes
        misnumbered[markers[100] + 1] = 0xD0 + (bytes[markers[100] + 1] - 0xD0 + 3) % 8
        #expect(misnumbered.withUnsafeBufferPointer {
            JPEGRestartBands.cut(JPEGByteWindow(.memory($0)), header: header, layout: layout, firstRow: 184)
        } == nil, "a misnumbered marker above the cut")
        #expect(misnumbered.withUnsafeBufferPointer {
            JPEGRestartBands.cut(JPEGByteWindow(.memory($0)), header: header, layout: layout, firstRow: 1)
        } != nil, "a misnumbered marker below the cut is the band's decompressor's to find")
        // Streamed from the file through the window (a 256 KiB window: the walk reads several), the same cuts.
        let file = try PhotoFile(Corpus.url("photos/olympus-ep3_4032x3024.jpg").path)
        for row in [189, 377] {
            let streamed = JPEGRestartBands.cut(JPEGByteWindow(.file(file, header: header)), header: header, layout: layout, firstRow: row)
            #expect(streamed?.dataStart == markers[row * 63 - 1] + 2 && streamed?.firstRestart == row * 63 % 8)
        }
    }

    /// A band cut at rows whose first marker is not RST0 decodes to the whole file's rows, byte for
    /// byte (libjpeg counts the markers on from the number it is told), at every DCT scale.
    @Test(arguments: ["photos/olympus-ep3_4032x3024.jpg", "photos/iphone6_3264x2448.jpg"])
    func bandsCutAtAnyRowDecodeToTheFilesRows(_ name: String) throws {
        let bytes = try Corpus.bytes(name)
        let header = Array(bytes.prefix(JPEGFileHeader.firstRead))
        let layout = try #require(JPEGRestartBands.layout(header))
        try bytes.withUnsafeBufferPointer { (data) throws in
            for scale in [1, 2, 8] {
                let whole = try Self.decodedPlanes(try JPEGStream(data, scaleDenominator: scale, planes: true))
                for row in [1, 3, layout.mcuRows / 2 + 1, layout.mcuRows - 2] {
                    let cut = try #require(JPEGRestartBands.cut(JPEGByteWindow(.memory(data)), header: header, layout: layout, firstRow: row))
                    #expect(cut.firstRestart == row * layout.intervalsPerRow % 8, "\(name) row \(row)")
                    let band = try Self.decodedPlanes(try JPEGStream(prefix: cut.header, ranges: [cut.dataStart..<data.count],
                                                                     of: .memory(data), firstRestart: cut.firstRestart,
                                                                     scaleDenominator: scale))
                    for c in 0..<3 {
                        let skipped = row * band.rows[c]
                        let same = band.planes[c] == Array(whole.planes[c][(skipped * whole.strides[c])...])
                        #expect(same, "\(name) from row \(row) at 1/\(scale): plane \(c)")
                    }
                }
            }
        }
    }

    /// Skipping restart markers through the file's window: a marker whose 0xFF is the window's
    /// last byte, a stuffed 0xFF00 split the same way and fill bytes before a marker are read
    /// as in memory; a misnumbered marker, another marker or the end stops it.
    @Test func restartMarkersAreSkippedAcrossTheWindowsEdges() throws {
        let window = 1 << 18, start = 100
        var bytes = [UInt8](repeating: 0x11, count: start + 3 * window)
        // Marker k at these offsets, RST(k % 8); the second at the first window's edge, a stuffed
        // zero across the second's (read from the second marker's 0xFF on), fill bytes before the fifth.
        let markers = [start + 10, start + window - 1, start + window + 500, start + 2 * window + 7, start + 2 * window + 40]
        for (k, at) in markers.enumerated() {
            bytes[at] = 0xFF
            bytes[at + 1] = 0xD0 + UInt8(k % 8)
        }
        bytes[start + 2 * window - 2] = 0xFF
        bytes[start + 2 * window - 1] = 0x00
        bytes[markers[4] - 2] = 0xFF
        bytes[markers[4] - 1] = 0xFF
        func check(_ source: JPEGByteWindow, _ label: String) {
            #expect(source.skipRestartMarkers(from: start, count: 5, first: 0) == markers[4] + 2, "\(label)")
            #expect(source.skipRestartMarkers(from: start, count: 2, first: 0) == markers[1] + 2, "\(label)")
            #expect(source.skipRestartMarkers(from: markers[1] + 2, count: 3, first: 2) == markers[4] + 2, "\(label)")
            #expect(source.skipRestartMarkers(from: start, count: 2, first: 1) == nil, "\(label): misnumbered")
            #expect(source.skipRestartMarkers(from: start, count: 6, first: 0) == nil, "\(label): the end before the sixth")
        }
        bytes.withUnsafeBufferPointer { check(JPEGByteWindow(.memory($0)), "memory") }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("petspot-window-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        check(JPEGByteWindow(.file(try PhotoFile(path), header: Array(bytes.prefix(64)))), "file")
        bytes[markers[3] + 1] = 0xD9
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(JPEGByteWindow(.file(try PhotoFile(path), header: [])).skipRestartMarkers(from: start, count: 5, first: 0) == nil,
                "another marker")
    }

    /// Every restart marker of the scan from `start`, found byte by byte.
    static func restartMarkers(_ bytes: [UInt8], from start: Int) -> [Int] {
        var markers: [Int] = []
        var offset = start
        while offset + 1 < bytes.count {
            if bytes[offset] == 0xFF, (0xD0...0xD7).contains(bytes[offset + 1]) { markers.append(offset) }
            offset += bytes[offset] == 0xFF ? 2 : 1
        }
        return markers
    }

    /// A stream's planes decoded whole (each plane's rows packed at its stride), with the rows of
    /// each plane per read.
    static func decodedPlanes(_ stream: JPEGStream) throws -> (planes: [[UInt8]], strides: [Int], rows: [Int]) {
        let layout = try #require(stream.planes)
        let strips = layout.map { UnsafeMutablePointer<UInt8>.allocate(capacity: $0.stride * $0.rowsPerRead) }
        defer { strips.forEach { $0.deallocate() } }
        var planes = layout.map { _ in [UInt8]() }
        while try stream.readPlanes(into: strips) > 0 {
            for c in 0..<3 { planes[c] += UnsafeBufferPointer(start: strips[c], count: layout[c].stride * layout[c].rowsPerRead) }
        }
        try stream.finish()
        return (planes, layout.map(\.stride), layout.map(\.rowsPerRead))
    }

    /// The cut gives the halves about equal work: at the first row where the bytes and the rows
    /// above, weighted as ``JPEGRestartBands/pixelShare`` says, reach ``JPEGRestartBands/balance``;
    /// never outside the middle two fifths of the rows, even with megabytes after the image.
    @Test func theCutBalancesBytesAndRows() throws {
        for name in ["photos/olympus-ep3_4032x3024.jpg", "photos/iphone6_3264x2448.jpg"] {
            let bytes = try Corpus.bytes(name)
            let header = Array(bytes.prefix(JPEGFileHeader.firstRead))
            let layout = try #require(JPEGRestartBands.layout(header))
            let markers = Self.restartMarkers(bytes, from: layout.scanData)
            let data = Double(bytes.count - layout.scanData), rows = Double(layout.mcuRows), p = JPEGRestartBands.pixelShare
            func share(_ row: Int) -> Double {
                (1 - p) * Double(markers[row * layout.intervalsPerRow - 1] + 2 - layout.scanData) / data + p * Double(row) / rows
            }
            let cut = try #require(bytes.withUnsafeBufferPointer {
                JPEGRestartBands.balancedCut(JPEGByteWindow(.memory($0)), header: header, layout: layout)
            })
            #expect(share(cut.row) >= JPEGRestartBands.balance && share(cut.row - 1) < JPEGRestartBands.balance, "\(name): row \(cut.row)")
            // Ten megabytes after the end of the image (an MPF picture, say): the cut stops at seven tenths.
            let padded = bytes + [UInt8](repeating: 0x11, count: 10 << 20)
            let low = try #require(padded.withUnsafeBufferPointer {
                JPEGRestartBands.balancedCut(JPEGByteWindow(.memory($0)), header: header, layout: layout)
            })
            #expect(low.row == (layout.mcuRows * 7 + 9) / 10, "\(name): \(low.row) of \(layout.mcuRows)")
        }
    }

    /// Small files are cut but decoded by one decompressor.
    @Test(arguments: small)
    func smallFilesAreNotBanded(_ name: String) throws {
        let bytes = try Corpus.bytes(name)
        let info = try PhotoPipeline.inspect(bytes)
        #expect(JPEGRestartBands.layout(Array(bytes.prefix(JPEGFileHeader.firstRead))) != nil)
        let resize = ResizeRequest(target: info.storedSize, threads: 2)
        #expect(bytes.withUnsafeBufferPointer {
            JPEGDecoder().decodeBanded(.memory($0), scale: 1, resize: resize, planar: PlanarOutput(subsampling: .half))
        } == nil)
    }

    /// Where the halves meet: the top half's output rows read only its own MCU rows, the bottom
    /// half's first output row reads nothing above the bottom band, in every plane.
    @Test(arguments: [(4032, 3024, 2048), (4032, 3024, 1024), (3264, 2448, 640), (1600, 1200, 1599), (640, 480, 64)])
    func theSplitLeavesEachHalfTheRowsItReads(_ width: Int, _ height: Int, _ long: Int) throws {
        // 4:2:0 at full scale: 16 luma rows, 8 chroma rows per MCU row.
        let chroma = PixelSize(width: (width + 1) / 2, height: (height + 1) / 2)
        let planes = [JPEGPlane(size: PixelSize(width: width, height: height), stride: width, rowsPerRead: 16),
                      JPEGPlane(size: chroma, stride: chroma.width, rowsPerRead: 8),
                      JPEGPlane(size: chroma, stride: chroma.width, rowsPerRead: 8)]
        let target = PixelSize(width: long, height: long * height / width)
        let targets = YCbCrImage.sampledSizes(target, subsampling: .half)
        let kernels = (0..<3).map { PlaneKernel(source: planes[$0].size, target: targets[$0], filter: .lanczos3) }
        let mcuRows = (height + 15) / 16
        let bottomRow = mcuRows / 2 + 1
        let split = try #require(RowSplit(planes: planes, kernels: kernels, mcuRows: mcuRows, bottomRow: bottomRow))
        #expect(split.topMCURows < mcuRows)
        // The top half goes no further down than the MCU row its last output rows' filters reach.
        #expect((0..<3).contains { c in
            let v = kernels[c].vertical, s = split.outputSplit[c]
            return split.topMCURows * planes[c].rowsPerRead < v.starts[s - 1] + v.counts[s - 1] + planes[c].rowsPerRead
        })
        for c in 0..<3 {
            let v = kernels[c].vertical, s = split.outputSplit[c]
            #expect(v.starts[s - 1] + v.counts[s - 1] <= split.topMCURows * planes[c].rowsPerRead)
            #expect(v.starts[s] >= split.bottomFirstRows[c] && split.bottomFirstRows[c] == bottomRow * planes[c].rowsPerRead)
        }
    }
}
