/// A baseline JPEG cut at a restart marker into a band of MCU rows that a second libjpeg
/// decompressor can decode on another core (issue 23 §1).
///
/// A restart marker resets the DC predictions, so the entropy-coded data after a marker that
/// begins an MCU row decodes without the rows above it. The band is the original header with the
/// frame height of its rows, then the file from that marker on. libjpeg checks that the markers
/// count RST0, RST1, … from the start of a scan; the cut is made only at a row whose first interval
/// is a multiple of eight, where the file's own numbering starts again at RST0, so the file's bytes
/// are read in place, never copied and renumbered. Decoded to raw planes (no chroma upsampling:
/// nothing crosses a block row), the band's planes are the single decoder's rows byte for byte.
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

    /// A band from an MCU row to the bottom: its header, and where in the file its data begins.
    struct Cut {
        var header: [UInt8]
        var dataStart: Int
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

    /// The MCU row nearest `row` where a band can begin without renumbering: its first restart
    /// interval's number is a multiple of eight (every eighth row at most, when a row holds an odd
    /// number of intervals).
    static func alignedRow(near row: Int, layout: Layout) -> Int? {
        let step = 8 / gcd(layout.intervalsPerRow, 8)
        let below = row / step * step, above = below + step
        let candidates = [below, above].filter { $0 >= 1 && $0 < layout.mcuRows }
        return candidates.min { abs($0 - row) < abs($1 - row) }
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }

    /// The band of MCU rows `firstRow…` of the file whose header (`header`, at least up to the
    /// scan's data) has `layout`: the restart markers before it are counted and checked from the
    /// scan's start (through a window: the file is not read whole). `nil` if `firstRow` is not
    /// aligned (``alignedRow(near:layout:)``) or the markers are not where the interval says.
    static func cut(_ bytes: JPEGByteWindow, header: [UInt8], layout: Layout, firstRow: Int) -> Cut? {
        let markers = firstRow * layout.intervalsPerRow
        guard firstRow >= 1, firstRow < layout.mcuRows, markers % 8 == 0, header.count >= layout.scanData,
              layout.heightField + 1 < layout.scanData else { return nil }
        var offset = layout.scanData, found = 0
        while found < markers {
            guard let at = bytes.nextMarker(from: offset, restarts: true), (0xD0...0xD7).contains(bytes[at + 1]),
                  Int(bytes[at + 1] - 0xD0) == found % 8 else { return nil }
            found += 1
            offset = at + 2
        }
        var band = Array(header[0..<layout.scanData])
        let height = layout.height - firstRow * layout.mcuHeight
        band[layout.heightField] = UInt8(height >> 8)
        band[layout.heightField + 1] = UInt8(height & 0xFF)
        return Cut(header: band, dataStart: offset)
    }
}
