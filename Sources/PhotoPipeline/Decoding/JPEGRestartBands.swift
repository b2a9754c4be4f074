#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

    let layout: Layout
    /// Offsets of every restart marker, in order, and of the EOI that ends the scan.
    private let markers: [Int]
    private let eoi: Int

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

    /// Reads the layout from the file's header, then cuts.
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let layout = Self.layout(JPEGSource.memory(bytes).header) else { return nil }
        self.init(bytes, layout: layout)
    }

    /// Finds every restart marker of `bytes`, whose header has `layout`; `nil` unless the file can
    /// be cut exactly.
    init?(_ bytes: UnsafeBufferPointer<UInt8>, layout: Layout) {
        guard let base = bytes.baseAddress, layout.mcuRows >= 4, layout.scanData <= bytes.count else { return nil }
        var markers: [Int] = []
        // As many as the header promises, but no more than the data could hold (two bytes each).
        markers.reserveCapacity(min(layout.mcuRows * layout.mcusPerRow / layout.interval, bytes.count / 2))
        var offset = layout.scanData
        var eoi: Int?
        while offset + 1 < bytes.count {
            // Entropy-coded data: jump to the next 0xFF (memchr is ~20× a byte loop over 5 MB).
            guard let found = memchr(base + offset, 0xFF, bytes.count - offset) else { break }
            offset = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base
            guard offset + 1 < bytes.count else { break }
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
        let intervals = (layout.mcusPerRow * layout.mcuRows + layout.interval - 1) / layout.interval
        guard let eoi, markers.count == intervals - 1 else { return nil }
        self.layout = layout
        self.markers = markers
        self.eoi = eoi
    }

    /// MCU rows `rows` of `bytes` (the file this cut was made from) as a JPEG of their own: the
    /// header with the rows' height, their slice of the scan with the markers renumbered from RST0.
    func band(_ rows: Range<Int>, of bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        precondition(!rows.isEmpty && rows.upperBound <= layout.mcuRows, "MCU rows \(rows) of \(layout.mcuRows)")
        let intervalsPerRow = layout.mcusPerRow / layout.interval
        let firstRow = rows.lowerBound, lastRow = rows.upperBound
        // From after the marker that ends the row above to the marker that ends the band's last row.
        let start = firstRow == 0 ? layout.scanData : markers[firstRow * intervalsPerRow - 1] + 2
        let end = lastRow == layout.mcuRows ? eoi : markers[lastRow * intervalsPerRow - 1]
        let height = min(layout.height, lastRow * layout.mcuHeight) - firstRow * layout.mcuHeight
        var stream = [UInt8]()
        stream.reserveCapacity(layout.scanData + end - start + 2)
        stream.append(contentsOf: bytes[0..<layout.scanData])
        stream[layout.heightField] = UInt8(height >> 8)
        stream[layout.heightField + 1] = UInt8(height & 0xFF)
        stream.append(contentsOf: bytes[start..<end])
        // Renumber: the band's k-th marker is RST(k mod 8).
        let shift = (firstRow * intervalsPerRow) % 8
        if shift != 0 {
            for index in (firstRow * intervalsPerRow)..<(lastRow == layout.mcuRows ? markers.count : lastRow * intervalsPerRow - 1) {
                let at = layout.scanData + markers[index] - start + 1
                stream[at] = 0xD0 + UInt8((Int(stream[at] - 0xD0) + 8 - shift) % 8)
            }
        }
        stream += [0xFF, 0xD9]
        return stream
    }
}
