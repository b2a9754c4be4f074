/// The JPEG of upright YCbCr planes, encoded while a decoder's resizers are still writing them: the
/// ``PlaneRowSink`` the plan names (``PreparePlan``) when the output is a JPEG made from the file's
/// own planes, nothing is turned, and there are two or more threads (on one, encoding would only
/// take turns with decoding). Column-band writers feed one encoder, a job of its own on
/// the decode's workers (``StreamedJPEGEncoding``); two row bands feed two encoders, each run by
/// its band's thread, whose halves are joined at a restart marker (``RowBandsJPEGEncoding``).
final class JPEGPlanesEncoder: PlaneRowSink, @unchecked Sendable {
    let options: EncodingOptions
    let subsampling: ChromaSubsampling
    /// Set by `open`, before the writers' threads report rows.
    private var columns: StreamedJPEGEncoding?
    private var rows: RowBandsJPEGEncoding?

    init(options: EncodingOptions, subsampling: ChromaSubsampling) {
        self.options = options
        self.subsampling = subsampling
    }

    /// Column-band writers' rows are encoded by one job on `workers`; row bands' by the bands' own
    /// threads. The image is as large as the Y plane (`sizes[0]`).
    func open(planes: [UnsafeMutablePointer<UInt8>], sizes: [PixelSize], writers: PlaneWriters,
              on workers: Workers) throws(PhotoError) {
        let size = sizes[0]
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

    /// Completes the file (without an ICC profile) and frees the encoders (the bytes are copied
    /// out of libjpeg's buffer).
    func close() throws(PhotoError) -> EncodedImage? {
        defer { (columns, rows) = (nil, nil) }
        if let columns { return EncodedImage(data: try columns.result(), options: options) }
        if let rows {
            rows.finishAll()
            return EncodedImage(data: try rows.result(), options: options)
        }
        return nil
    }

    func abandon() {
        columns?.abandon()
        rows?.abandon()
        (columns, rows) = (nil, nil)
    }
}
