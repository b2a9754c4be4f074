import Synchronization

/// The JPEG of the two row bands' path (``JPEGDecoder/decodeBanded(_:scale:resize:planar:)``),
/// encoded as two halves at once: a single encoder could take the bottom band's rows
/// only after the top band's, so it would go on alone, on one core, for the bottom half's last
/// rows after both decoders had finished.
///
/// The top encoder encodes iMCU rows `0..<k` as an image `k` iMCU rows high; the bottom encoder
/// the rest as an image of its own, from the bottom band's rows as they come. Both encode on the
/// threads that report the rows (``StreamedJPEGEncoding``'s inline mode): each band's thread
/// encodes its own half (the top half's last iMCU row, which holds a few of the bottom band's
/// first rows, by whichever thread finishes it), so two threads share two cores, and the work the
/// cut balances includes the encoding.
/// The two are spliced into one baseline JPEG with a restart interval of `k` MCU rows
/// (``splice(top:bottom:height:restartInterval:)``): the top's headers and scan, with the
/// full height and a DRI segment, then RST0, then the bottom's scan. A restart marker ends the
/// top's data padded with 1-bits as the end of a scan does, and restarts the DC predictions at
/// 0 as a new image does, so the file is byte for byte the one libjpeg writes with that interval
/// (tested), and decodes to the pixels the single encoder's file does.
///
/// Not split (one encoder taking the bands' rows in order, as before): progressive output, fewer
/// than two iMCU rows, or an interval past the format's 65,535 MCUs.
final class RowBandsJPEGEncoding: @unchecked Sendable {
    private let top: StreamedJPEGEncoding
    private let bottom: StreamedJPEGEncoding?
    /// Where the bottom encoder's rows begin, per plane (0 when not split).
    private let bottomStarts: [Int]
    /// Where the bottom decoder's output rows begin, per plane.
    private let decodeSplits: [Int]
    private let heights: [Int]
    private let height: Int
    private let restartInterval: Int
    /// Rows finished by the top band (from 0) and by the bottom band (from its split), per plane.
    private let rows: Mutex<[(top: Int, bottom: Int)]>

    /// - Parameters:
    ///   - planes: the upright output planes (`sizes[c]` samples each, rows packed), filled while this runs.
    ///   - decodeSplits: the first output row of each plane the bottom band makes.
    init(size: PixelSize, subsampling: ChromaSubsampling, options: EncodingOptions, planes: [UnsafeMutablePointer<UInt8>],
         sizes: [PixelSize], decodeSplits: [Int]) throws(PhotoError) {
        height = size.height
        heights = sizes.map(\.height)
        self.decodeSplits = decodeSplits
        rows = Mutex(decodeSplits.map { (0, $0) })
        guard !options.progressive, let cut = Self.cut(size: size, subsampling: subsampling, decodeSplits: decodeSplits) else {
            top = try StreamedJPEGEncoding(size: size, subsampling: subsampling, options: options, planes: planes, sizes: sizes,
                                           bands: [1, 1, 1], inline: true)
            bottom = nil
            bottomStarts = [0, 0, 0]
            restartInterval = 0
            return
        }
        bottomStarts = cut.planeRows
        restartInterval = cut.restartInterval
        let topSizes = (0..<3).map { PixelSize(width: sizes[$0].width, height: cut.planeRows[$0]) }
        let bottomSizes = (0..<3).map { PixelSize(width: sizes[$0].width, height: sizes[$0].height - cut.planeRows[$0]) }
        top = try StreamedJPEGEncoding(size: PixelSize(width: size.width, height: cut.imageRows), subsampling: subsampling,
                                       options: options, planes: planes, sizes: topSizes, bands: [1, 1, 1], inline: true)
        bottom = try StreamedJPEGEncoding(size: PixelSize(width: size.width, height: size.height - cut.imageRows), subsampling: subsampling,
                                          options: options, planes: (0..<3).map { planes[$0] + cut.planeRows[$0] * sizes[$0].width },
                                          sizes: bottomSizes, bands: [1, 1, 1], inline: true)
    }

    /// Where the file is cut: after `imageRows` image rows (a whole number `k` of iMCU rows, at
    /// least half of them, and below every plane's decode split, so that the bottom encoder waits
    /// on the bottom band alone), `planeRows[c]` rows of each plane; the restart interval is `k`
    /// rows of MCUs. `nil` when the image cannot be cut so.
    static func cut(size: PixelSize, subsampling: ChromaSubsampling, decodeSplits: [Int])
        -> (imageRows: Int, planeRows: [Int], restartInterval: Int)? {
        let mcu = subsampling == .full ? 8 : 16
        let rowsPerIMCU = subsampling == .full ? [8, 8, 8] : [16, 8, 8]
        let imcuRows = (size.height + mcu - 1) / mcu
        var k = (imcuRows + 1) / 2
        for c in 0..<3 { k = max(k, (decodeSplits[c] + rowsPerIMCU[c] - 1) / rowsPerIMCU[c]) }
        let interval = k * ((size.width + mcu - 1) / mcu)
        guard imcuRows >= 2, k < imcuRows, interval <= 65_535 else { return nil }
        return (k * mcu, rowsPerIMCU.map { $0 * k }, interval)
    }

    /// The top band finished its first `finished` rows of `plane`.
    func topFinished(plane: Int, rows finished: Int) {
        report(plane) { $0.top = finished }
    }

    /// The bottom band finished its rows of `plane` up to `finished` (a row index of the whole plane).
    func bottomFinished(plane: Int, rows finished: Int) {
        report(plane) { $0.bottom = finished }
    }

    /// Every row of every plane is finished.
    func finishAll() {
        for plane in 0..<3 { report(plane) { $0 = (self.decodeSplits[plane], self.heights[plane]) } }
    }

    private func report(_ plane: Int, _ update: (inout (top: Int, bottom: Int)) -> Void) {
        let state = rows.withLock { rows in
            update(&rows[plane])
            return rows[plane]
        }
        let split = decodeSplits[plane]
        // Rows finished from `start` on: the top band's up to its split, then the bottom band's.
        func contiguous(from start: Int) -> Int {
            start >= split || state.top >= split ? state.bottom : state.top
        }
        let from = bottomStarts[plane]
        guard let bottom else {
            top.finished(plane: plane, band: 0, rows: contiguous(from: 0))
            return
        }
        top.finished(plane: plane, band: 0, rows: min(contiguous(from: 0), from))
        bottom.finished(plane: plane, band: 0, rows: max(0, contiguous(from: from) - from))
    }

    /// Stops both encoders (the decode failed) and waits for them; what they made is dropped.
    func abandon() {
        top.abandon()
        bottom?.abandon()
    }

    /// The JPEG, once every row has been encoded (waits for both encoders).
    func result() throws(PhotoError) -> [UInt8] {
        guard let bottom else { return try top.result() }
        // Both finished first (the planes they read are freed once this throws), then joined
        // straight from libjpeg's buffers (which live as long as the encoders) into the file.
        let upper = Result { () throws(PhotoError) in try top.finished() }
        let lower = Result { () throws(PhotoError) in try bottom.finished() }
        guard let whole = Self.splice(top: try upper.get(), bottom: try lower.get(), height: height, restartInterval: restartInterval) else {
            throw .encodingFailed(.jpeg, detail: "the two halves of the JPEG could not be joined")
        }
        return whole
    }

    /// The splice below, of two arrays.
    static func splice(top: [UInt8], bottom: [UInt8], height: Int, restartInterval: Int) -> [UInt8]? {
        top.withUnsafeBufferPointer { top in
            bottom.withUnsafeBufferPointer { bottom in splice(top: top, bottom: bottom, height: height, restartInterval: restartInterval) }
        }
    }

    /// One baseline JPEG of `height` rows from two that libjpeg wrote with the same settings:
    /// `top`'s headers with `height` in the frame header and a restart interval (DRI, where libjpeg
    /// writes it: after the Huffman tables, before the scan header), `top`'s scan, RST0, then
    /// `bottom`'s scan data and the end marker.
    static func splice(top: UnsafeBufferPointer<UInt8>, bottom: UnsafeBufferPointer<UInt8>, height: Int,
                       restartInterval: Int) -> [UInt8]? {
        guard let upper = scanLayout(top), let lower = scanLayout(bottom), height <= 0xFFFF else { return nil }
        let restart: [UInt8] = [0xFF, 0xDD, 0x00, 0x04, UInt8(restartInterval >> 8), UInt8(restartInterval & 0xFF)]
        let count = upper.scan + restart.count + (top.count - 2 - upper.scan) + 2 + (bottom.count - 2 - lower.data) + 2
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var at = 0
            func append(_ bytes: UnsafeBufferPointer<UInt8>) {
                guard let source = bytes.baseAddress else { return }
                (buffer.baseAddress! + at).update(from: source, count: bytes.count)
                at += bytes.count
            }
            append(UnsafeBufferPointer(rebasing: top[..<upper.scan]))
            buffer[upper.frame + 5] = UInt8(height >> 8)
            buffer[upper.frame + 6] = UInt8(height & 0xFF)
            restart.withUnsafeBufferPointer { append($0) }
            append(UnsafeBufferPointer(rebasing: top[upper.scan..<(top.count - 2)]))
            [0xFF, 0xD0].withUnsafeBufferPointer { append($0) }
            append(UnsafeBufferPointer(rebasing: bottom[lower.data..<(bottom.count - 2)]))
            [0xFF, 0xD9].withUnsafeBufferPointer { append($0) }
            initialized = at
        }
    }

    /// Where a baseline JPEG's frame header (SOF0) and scan header (SOS) begin and its scan data
    /// starts (through ``JPEGMarkerWalk``, over the headers: libjpeg's come to about 600 bytes);
    /// `nil` unless it has one of each, no restart interval, and ends with EOI.
    static func scanLayout(_ jpeg: UnsafeBufferPointer<UInt8>) -> (frame: Int, scan: Int, data: Int)? {
        guard jpeg.count >= 6, jpeg.starts(with: [0xFF, 0xD8]), jpeg.suffix(2).elementsEqual([0xFF, 0xD9]) else { return nil }
        for headers in [min(jpeg.count, 4096), jpeg.count] {
            var frame: Int?, restarts = false
            let end = try? JPEGMarkerWalk.walk(Array(jpeg.prefix(headers)), mode: .strict) { segment in
                if segment.marker == 0xC0 { frame = segment.start }
                if segment.marker == 0xDD { restarts = true }
            }
            guard case .scan(let scan)? = end, let frame else { continue }
            return restarts ? nil : (frame, scan.start, scan.body.upperBound)
        }
        return nil
    }
}
