import Synchronization

/// The JPEG of upright YCbCr planes, encoded while a decoder's resizers are still writing them: the
/// ``PlaneRowSink`` the plan names (``PreparePlan``) when the output is a JPEG made from the file's
/// own planes, nothing is turned, and there are two or more threads (on one, encoding would only
/// take turns with decoding).
///
/// Column-band writers feed one job on the decode's workers, which transforms and quantises
/// each row of iMCUs as it is finished (``JPEGRowsEncoding``). Two row bands feed the two parts
/// of the file (``JPEGWriter``), each encoded by its band's own thread: the top part ends at an
/// iMCU row at least half way down and below every plane's decode split, so the bottom part
/// waits on the bottom band alone. When every row is in, the parts are written side by side and
/// joined (``JPEGWriter/finish(on:)``).
final class JPEGPlanesEncoder: PlaneRowSink, @unchecked Sendable {
    let options: EncodingOptions
    let subsampling: ChromaSubsampling
    /// Set by `open`, before the writers' threads report rows.
    private var writer: JPEGWriter?
    private var workers: Workers?
    private var encodings: [JPEGRowsEncoding] = []
    /// Row bands: what each band has finished.
    private var bands: RowBands?

    /// Where the bottom band's rows begin in each plane, each plane's height, and the rows each band
    /// has finished (the top's from 0, the bottom's from its split).
    private final class RowBands: Sendable {
        let splits: [Int]
        let heights: [Int]
        let rows: Mutex<[(top: Int, bottom: Int)]>

        init(splits: [Int], heights: [Int]) {
            self.splits = splits
            self.heights = heights
            rows = Mutex(splits.map { (0, $0) })
        }
    }

    init(options: EncodingOptions, subsampling: ChromaSubsampling) {
        self.options = options
        self.subsampling = subsampling
    }

    /// Column-band writers' rows are encoded by one job on `workers`; row bands' by the bands' own
    /// threads. The image is as large as the Y plane (`sizes[0]`).
    func open(planes: [UnsafeMutablePointer<UInt8>], sizes: [PixelSize], writers: PlaneWriters,
              on workers: Workers) throws(PhotoError) {
        self.workers = workers
        switch writers {
        case .columnBands(let counts):
            let writer = try JPEGWriter(size: sizes[0], subsampling: subsampling, options: options)
            let encoding = JPEGRowsEncoding(writer, rows: 0..<writer.imcuRows, planes: planes, sizes: sizes, bands: counts)
            encoding.start(on: workers)
            (self.writer, encodings) = (writer, [encoding])
        case .rowBands(let splits):
            let split = Self.splitRow(size: sizes[0], subsampling: subsampling, decodeSplits: splits)
            let writer = try JPEGWriter(size: sizes[0], subsampling: subsampling, options: options, parts: split == nil ? 1 : 2,
                                        splitRow: split)
            if writer.splitRow < writer.imcuRows {
                encodings = [JPEGRowsEncoding(writer, rows: 0..<writer.splitRow, planes: planes, sizes: sizes, bands: [1, 1, 1],
                                              inline: true),
                             JPEGRowsEncoding(writer, rows: writer.splitRow..<writer.imcuRows, planes: planes, sizes: sizes,
                                              bands: [1, 1, 1], start: splits, inline: true)]
            } else {
                encodings = [JPEGRowsEncoding(writer, rows: 0..<writer.imcuRows, planes: planes, sizes: sizes, bands: [1, 1, 1],
                                              inline: true)]
            }
            self.writer = writer
            bands = RowBands(splits: splits, heights: sizes.map(\.height))
        }
    }

    /// Where the file is cut for two row bands: an iMCU row at least half way down, at or below
    /// every plane's decode split (so the bottom part waits on the bottom band alone); `nil` when
    /// there is no such row.
    static func splitRow(size: PixelSize, subsampling: ChromaSubsampling, decodeSplits: [Int]) -> Int? {
        let rowsPerIMCU = subsampling == .full ? [8, 8, 8] : [16, 8, 8]
        let imcuRows = (size.height + rowsPerIMCU[0] - 1) / rowsPerIMCU[0]
        var k = (imcuRows + 1) / 2
        for c in 0..<3 { k = max(k, (decodeSplits[c] + rowsPerIMCU[c] - 1) / rowsPerIMCU[c]) }
        return k < imcuRows ? k : nil
    }

    func finished(plane: Int, writer: Int, rows finished: Int) {
        guard let bands else {
            encodings.first?.finished(plane: plane, band: writer, rows: finished)
            return
        }
        let state = bands.rows.withLock { rows in
            if writer == 0 { rows[plane].top = finished } else { rows[plane].bottom = finished }
            return rows[plane]
        }
        report(plane, state, splits: bands.splits)
    }

    /// Tells the parts what the bands have finished: the top part has the rows contiguous from 0
    /// (the top band's up to its split, then the bottom band's), the bottom part the bottom band's.
    private func report(_ plane: Int, _ state: (top: Int, bottom: Int), splits: [Int]) {
        let fromTop = state.top >= splits[plane] ? state.bottom : state.top
        encodings[0].finished(plane: plane, band: 0, rows: fromTop)
        if encodings.count == 2 { encodings[1].finished(plane: plane, band: 0, rows: state.bottom) }
    }

    /// Completes the file (without an ICC profile): every row reported, the parts written side by
    /// side, joined.
    func close() throws(PhotoError) -> EncodedImage? {
        defer { (writer, encodings, bands) = (nil, [], nil) }
        guard let writer else { return nil }
        if let bands {
            for plane in 0..<3 { report(plane, (bands.splits[plane], bands.heights[plane]), splits: bands.splits) }
        }
        for encoding in encodings { try encoding.wait() }
        return EncodedImage(data: try writer.finish(on: workers), options: options)
    }

    func abandon() {
        for encoding in encodings { encoding.abandon() }
        (writer, encodings, bands) = (nil, [], nil)
    }
}
