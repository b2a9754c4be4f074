/// The JPEG of upright YCbCr planes, encoded while a decoder's resizers are still writing them: a
/// ``PlaneRowSink`` the pipeline puts at the end of the chain when the output is a JPEG made from
/// the file's own planes, nothing is turned, and there are two or more threads (on one, encoding
/// would only take turns with decoding). Column-band writers feed one encoder, a job of its own on
/// the decode's workers (``StreamedJPEGEncoding``); two row bands feed two encoders, each run by
/// its band's thread, whose halves are joined at a restart marker (``RowBandsJPEGEncoding``).
final class JPEGPlanesEncoder: PlaneRowSink, @unchecked Sendable {
    let options: EncodingOptions
    let size: PixelSize
    let subsampling: ChromaSubsampling
    /// Set by `open`, before the writers' threads report rows.
    private var columns: StreamedJPEGEncoding?
    private var rows: RowBandsJPEGEncoding?
    /// The finished file (without an ICC profile), once `close` succeeded.
    private(set) var bytes: [UInt8]?

    /// - Parameter size: the upright output size.
    init(options: EncodingOptions, size: PixelSize, subsampling: ChromaSubsampling) {
        self.options = options
        self.size = size
        self.subsampling = subsampling
    }

    /// Column-band writers' rows are encoded by one job on `workers`; row bands' by the bands' own
    /// threads. An encoding still open from an earlier `open` is abandoned first.
    func open(planes: [UnsafeMutablePointer<UInt8>], sizes: [PixelSize], writers: PlaneWriters,
              on workers: Workers) throws(PhotoError) {
        abandon()
        switch writers {
        case .columnBands(let counts):
            let encoding = try StreamedJPEGEncoding(size: size, subsampling: subsampling, options: options, planes: planes,
                                                    sizes: sizes, bands: counts)
            encoding.start(on: workers)
            columns = encoding
        case .rowBands(let splits):
            let encoding = try RowBandsJPEGEncoding(size: size, subsampling: subsampling, options: options, planes: planes,
                                                    sizes: sizes, decodeSplits: splits)
            rows = encoding
        }
    }

    func finished(plane: Int, writer: Int, rows finished: Int) {
        if let columns {
            columns.finished(plane: plane, band: writer, rows: finished)
        } else if writer == 0 {
            rows?.topFinished(plane: plane, rows: finished)
        } else {
            rows?.bottomFinished(plane: plane, rows: finished)
        }
    }

    /// Completes the file and frees the encoders (the bytes are copied out of libjpeg's buffer).
    func close() throws(PhotoError) {
        if let columns { bytes = try columns.result() }
        if let rows {
            rows.finishAll()
            bytes = try rows.result()
        }
        (columns, rows) = (nil, nil)
    }

    func abandon() {
        columns?.abandon()
        rows?.abandon()
        (columns, rows, bytes) = (nil, nil, nil)
    }
}
