/// A baseline JPEG cut at a restart marker into a band of MCU rows that a second libjpeg
/// decompressor can decode on another core.
///
/// A restart marker resets the DC predictions, so the entropy-coded data after a marker that
/// begins an MCU row decodes without the rows above it. The band is the original header with the
/// frame height of its rows, then the file from that marker on, read in place. libjpeg checks that
/// the markers count RST0, RST1, … from the start of a scan: the band's decompressor is told which
/// number its first marker has (``Cut/firstRestart``), so a band may begin at any MCU row. Decoded
/// to raw planes (no chroma upsampling: nothing crosses a block row), the band's planes are the
/// single decoder's rows byte for byte.
///
/// Only a file that allows this exactly is cut: baseline or extended sequential Huffman, one scan of
/// every component, a restart interval that divides an MCU row, and every marker before the cut
/// where and as the interval says. Anything else (progressive, arithmetic, a missing or misnumbered
/// marker) is left to the single decoder; damage after the cut is found by the band's decompressor,
/// and then the single decoder decodes the file and reports it as it always has.
enum JPEGRestartBands {
    /// The header fields that decide whether and where the file can be cut.
    struct Layout {
        var width: Int, height: Int
        /// Rows of pixels per MCU row (8 × the largest vertical sampling factor).
        var mcuHeight: Int
        var mcusPerRow: Int
        /// MCUs per restart interval.
        var interval: Int
        /// Where the frame header's height field is, and where the entropy-coded data begins.
        var heightField: Int
        var scanData: Int
        var mcuRows: Int { (height + mcuHeight - 1) / mcuHeight }
        var intervalsPerRow: Int { mcusPerRow / interval }
    }

    /// A band from an MCU row to the bottom: its header, where in the file its data begins, and
    /// the number (0–7) of the first restart marker in that data.
    struct Cut {
        var row: Int
        var header: [UInt8]
        var dataStart: Int
        var firstRestart: Int
    }

    /// Reads the layout from the segments before the first scan (`header` may be just those).
    static func layout(_ header: [UInt8]) -> Layout? {
        var frame: (size: PixelSize, mcuHeight: Int, mcuWidth: Int, components: Int, field: Int)?
        var interval = 0
        let end: JPEGMarkerWalk.End
        do throws(PhotoError) {
            end = try JPEGMarkerWalk.walk(header, mode: .tolerant) { (segment) throws(PhotoError) in
                let body = segment.body.lowerBound
                switch segment.marker {
                case 0xC0, 0xC1:  // baseline, extended sequential (Huffman)
                    guard frame == nil else { throw .corrupt(.jpeg, detail: "second frame") }
                    let (size, components) = try segment.frame(in: header)
                    guard segment.body.count >= 6 + 3 * components, components >= 1 else { throw .corrupt(.jpeg, detail: "short frame") }
                    var hMax = 1, vMax = 1
                    for c in 0..<components {
                        let sampling = header[body + 7 + 3 * c]
                        hMax = max(hMax, Int(sampling >> 4))
                        vMax = max(vMax, Int(sampling & 0x0F))
                    }
                    frame = (size, 8 * vMax, 8 * hMax, components, body + 1)
                case _ where segment.isFrameHeader:
                    throw .corrupt(.jpeg, detail: "not baseline")  // progressive, lossless, arithmetic
                case 0xDD where segment.body.count >= 2:
                    interval = Int(header[body]) << 8 | Int(header[body + 1])
                default:
                    break
                }
            }
        } catch {
            return nil
        }
        guard case .scan(let scan) = end, let frame, interval > 0, frame.size.width > 0, frame.size.height > 0,
              scan.body.count >= 1, Int(header[scan.body.lowerBound]) == frame.components else { return nil }
        let mcusPerRow = (frame.size.width + frame.mcuWidth - 1) / frame.mcuWidth
        guard mcusPerRow % interval == 0 else { return nil }
        return Layout(width: frame.size.width, height: frame.size.height, mcuHeight: frame.mcuHeight, mcusPerRow: mcusPerRow,
                      interval: interval, heightField: frame.field, scanData: scan.body.upperBound)
    }

    /// The cut that gives the two halves about the same work: the first MCU row where the rows
    /// above hold ``balance`` of it. A row's work is counted as its share of the entropy-coded
    /// bytes (Huffman decoding, most of libjpeg's time, follows the bytes: a sky holds fewer than
    /// grass) and its share of the rows (the IDCT, the resize and the encode follow the pixels).
    /// The bytes are known from the markers the cut checks anyway, on the way down; the file's end
    /// stands for the scan's. Kept within the middle two fifths of the rows (data after the image,
    /// an MPF second picture say, would otherwise push the cut down).
    static func balancedCut(_ bytes: JPEGByteWindow, header: [UInt8], layout: Layout) -> Cut? {
        let rows = layout.mcuRows
        let lowest = max(1, rows * 3 / 10), highest = min(rows - 1, (rows * 7 + 9) / 10)
        let data = Double(max(1, bytes.count - layout.scanData))
        guard lowest <= highest else { return nil }
        return walk(bytes, header: header, layout: layout) { row, offset in
            let share = (1 - pixelShare) * Double(offset - layout.scanData) / data + pixelShare * Double(row) / Double(rows)
            return row >= highest || (row >= lowest && share >= balance)
        }
    }

    /// The part of a band's work that follows its rows rather than its bytes: 0.2 and 0.6 balanced
    /// the corpus photos about as well (it is the bytes' variation down the picture that counts).
    static let pixelShare = 0.4
    /// The top half's share. Half: with each band thread's CPU time measured, the two halves came
    /// out closest at one half (the top's overlap rows below the cut weigh little;
    /// docs/performance.md).
    static let balance = 0.5

    /// The band of MCU rows `firstRow…` (a row of the caller's choosing: the tests cut at rows
    /// they name) of the file whose header (`header`, at least up to the scan's data) has `layout`: the restart markers before it are counted and checked from the
    /// scan's start (through a window: the file is not read whole). `nil` if the markers are not
    /// where the interval says.
    static func cut(_ bytes: JPEGByteWindow, header: [UInt8], layout: Layout, firstRow: Int) -> Cut? {
        guard firstRow >= 1, firstRow < layout.mcuRows else { return nil }
        return walk(bytes, header: header, layout: layout) { row, _ in row == firstRow }
    }

    /// Walks the scan's restart markers from its start, each checked for its number, and cuts at
    /// the first row `stop(row, offset)` accepts (`offset`: where that row's data begins).
    private static func walk(_ bytes: JPEGByteWindow, header: [UInt8], layout: Layout,
                             stop: (_ row: Int, _ offset: Int) -> Bool) -> Cut? {
        guard header.count >= layout.scanData, layout.heightField + 1 < layout.scanData, layout.mcuRows >= 2 else { return nil }
        var offset = layout.scanData, found = 0
        for row in 1..<layout.mcuRows {
            // Past the markers that end the intervals of the row above.
            guard let next = bytes.skipRestartMarkers(from: offset, count: layout.intervalsPerRow, first: found % 8) else { return nil }
            found += layout.intervalsPerRow
            offset = next
            guard stop(row, offset) else { continue }
            var band = Array(header[0..<layout.scanData])
            let height = layout.height - row * layout.mcuHeight
            band[layout.heightField] = UInt8(height >> 8)
            band[layout.heightField + 1] = UInt8(height & 0xFF)
            return Cut(row: row, header: band, dataStart: offset, firstRestart: found % 8)
        }
        return nil
    }
}
