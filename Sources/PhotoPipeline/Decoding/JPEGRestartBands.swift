/// A baseline JPEG cut at its restart markers into bands of MCU rows, each a JPEG of its own that
/// a second libjpeg decompressor can decode on another core (issue 23 §1).
///
/// A restart marker resets the DC predictions, so the entropy-coded data after a marker that
/// begins an MCU row decodes without the rows above it. Each band is the original header with the
/// frame height of its rows, and its slice of the scan with the markers renumbered from RST0 (libjpeg
/// checks their sequence). Decoded to raw planes (no chroma upsampling: nothing crosses a block
/// row), the bands' planes, stacked, are the single decoder's planes byte for byte.
///
/// Only a file that allows this exactly is cut: baseline or extended sequential Huffman, one scan of
/// every component, a restart interval that divides an MCU row, every marker where and as the
/// interval says. Anything else (progressive, arithmetic, a missing or misnumbered marker, a
/// truncated scan) is left to the single decoder, which also reports any damage as it always has.
struct JPEGRestartBands {
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
    }

    /// The bands, top to bottom, each a complete JPEG.
    let bands: [[UInt8]]
    /// Image rows (at full scale) of each band.
    let rows: [Int]

    /// Reads the layout from the segments before the first scan (`header` may be just those).
    static func layout(_ header: [UInt8]) -> Layout? {
        var frame: (width: Int, height: Int, mcuHeight: Int, mcuWidth: Int, components: Int, field: Int)?
        var interval = 0
        let end: JPEGMarkerWalk.End
        do throws(PhotoError) {
            end = try JPEGMarkerWalk.walk(header, mode: .tolerant) { (segment) throws(PhotoError) in
                let body = segment.body.lowerBound
                switch segment.marker {
                case 0xC0, 0xC1:  // baseline, extended sequential (Huffman)
                    guard segment.body.count >= 6, frame == nil else { throw .corrupt(.jpeg, detail: "second frame") }
                    let components = Int(header[body + 5])
                    guard segment.body.count >= 6 + 3 * components, components >= 1 else { throw .corrupt(.jpeg, detail: "short frame") }
                    var hMax = 1, vMax = 1
                    for c in 0..<components {
                        let sampling = header[body + 7 + 3 * c]
                        hMax = max(hMax, Int(sampling >> 4))
                        vMax = max(vMax, Int(sampling & 0x0F))
                    }
                    frame = (Int(header[body + 3]) << 8 | Int(header[body + 4]), Int(header[body + 1]) << 8 | Int(header[body + 2]),
                             8 * vMax, 8 * hMax, components, body + 1)
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
        guard case .scan(let scan) = end, let frame, interval > 0, frame.width > 0, frame.height > 0,
              scan.body.count >= 1, Int(header[scan.body.lowerBound]) == frame.components else { return nil }
        let mcusPerRow = (frame.width + frame.mcuWidth - 1) / frame.mcuWidth
        guard mcusPerRow % interval == 0 else { return nil }
        return Layout(width: frame.width, height: frame.height, mcuHeight: frame.mcuHeight, mcusPerRow: mcusPerRow,
                      interval: interval, heightField: frame.field, scanData: scan.body.upperBound)
    }

    /// Cuts `bytes` into `count` bands of about equal rows, or `nil` when it cannot be cut exactly.
    init?(_ bytes: UnsafeBufferPointer<UInt8>, count: Int) {
        let scanLimit = min(bytes.count, 1 << 20)
        guard count >= 2, let layout = Self.layout(Array(bytes[0..<scanLimit])), layout.mcuRows >= 2 * count else { return nil }
        // Every restart marker's offset, and where the scan ends (its EOI).
        var markers: [Int] = []
        var offset = layout.scanData
        var eoi: Int?
        while offset + 1 < bytes.count {
            if bytes[offset] != 0xFF { offset += 1; continue }
            let next = bytes[offset + 1]
            if next == 0x00 { offset += 2; continue }
            if next == 0xFF { offset += 1; continue }
            if (0xD0...0xD7).contains(next) {
                guard Int(next - 0xD0) == markers.count % 8 else { return nil }
                markers.append(offset)
                offset += 2
                continue
            }
            if next == 0xD9 { eoi = offset }
            break  // EOI, or any other marker (DNL, a second scan): not cut
        }
        let intervalsPerRow = layout.mcusPerRow / layout.interval
        let totalMCUs = layout.mcusPerRow * layout.mcuRows
        let intervals = (totalMCUs + layout.interval - 1) / layout.interval
        guard let eoi, markers.count == intervals - 1 else { return nil }

        let header = Array(bytes[0..<layout.scanData])
        var bands: [[UInt8]] = []
        var rows: [Int] = []
        var firstRow = 0
        for band in 0..<count {
            let lastRow = band == count - 1 ? layout.mcuRows : layout.mcuRows * (band + 1) / count
            // Data from after the marker that ends the row above to before the marker that ends this band's last row.
            let start = firstRow == 0 ? layout.scanData : markers[firstRow * intervalsPerRow - 1] + 2
            let end = lastRow == layout.mcuRows ? eoi : markers[lastRow * intervalsPerRow - 1]
            let height = min(layout.height, lastRow * layout.mcuHeight) - firstRow * layout.mcuHeight
            var stream = header
            stream[layout.heightField] = UInt8(height >> 8)
            stream[layout.heightField + 1] = UInt8(height & 0xFF)
            stream.append(contentsOf: bytes[start..<end])
            // Renumber: the band's k-th marker is RST(k mod 8).
            let shift = firstRow == 0 ? 0 : (firstRow * intervalsPerRow) % 8
            if shift != 0 {
                for index in (firstRow * intervalsPerRow)..<(lastRow == layout.mcuRows ? markers.count : lastRow * intervalsPerRow - 1) {
                    let at = header.count + markers[index] - start + 1
                    stream[at] = 0xD0 + UInt8((Int(stream[at] - 0xD0) + 8 - shift) % 8)
                }
            }
            stream += [0xFF, 0xD9]
            bands.append(stream)
            rows.append(height)
            firstRow = lastRow
        }
        self.bands = bands
        self.rows = rows
    }
}
