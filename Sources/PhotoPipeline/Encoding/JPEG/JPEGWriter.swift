internal import CJPEGEncoder

/// One JPEG being made by our encoder (`CJPEGEncoder`: our transform, quantisation tables and
/// choice of each block's levels; libjpeg-turbo writes the bits) from an image's planes, a row of
/// iMCUs (16 image rows at 4:2:0, 8 otherwise) at a time.
///
/// A baseline file is made in two parts cut at an iMCU row (``splitRow``), each encoded by
/// whichever thread has its rows, then written side by side (``finish(on:)``) and joined at a
/// restart marker (``JPEGSplice``): the same coefficients, so the same pixels, as one part. A
/// progressive file is one part, written by libjpeg's progressive encoder with its own tables.
final class JPEGWriter: @unchecked Sendable {
    private let encoder: OpaquePointer
    let size: PixelSize
    let options: EncodingOptions
    /// Rows of iMCUs, the first row of the second part (``imcuRows`` with one part), and each
    /// plane's rows per iMCU row.
    let imcuRows: Int
    let splitRow: Int
    let rowsPerIMCU: [Int]
    /// 1 (grey) or 3.
    let components: Int

    /// - Parameters:
    ///   - subsampling: the planes' chroma; `nil` for one grey plane.
    ///   - splitRow: where the second part begins (an iMCU row); `nil`: half way. One part when
    ///     the image is a single iMCU row, when the file is progressive, or when `parts` is 1.
    ///   - baselineKernels: the transform for any CPU even where AVX2 runs (the tests compare them).
    init(size: PixelSize, subsampling: ChromaSubsampling?, options: EncodingOptions, parts: Int = 2,
         splitRow: Int? = nil, baselineKernels: Bool = false) throws(PhotoError) {
        try CodecLibrary.jpeg.load()
        var settings = pq_settings()
        settings.quality = Int32(min(100, max(1, options.quality)))
        settings.components = subsampling == nil ? 1 : 3
        settings.full_chroma = subsampling == .full ? 1 : 0
        settings.progressive = options.writesProgressive ? 1 : 0
        settings.two_parts = parts > 1 ? 1 : 0
        settings.split_row = Int32(splitRow ?? 0)
        settings.baseline_kernels = baselineKernels ? 1 : 0
        guard let encoder = pq_create(Int32(size.width), Int32(size.height), &settings) else {
            throw .encodingFailed(.jpeg, detail: "the encoder could not start a \(size) JPEG")
        }
        self.encoder = encoder
        self.size = size
        self.options = options
        components = Int(settings.components)
        imcuRows = Int(pq_imcu_rows(encoder))
        self.splitRow = Int(pq_split_row(encoder))
        rowsPerIMCU = (0..<components).map { Int(pq_plane_rows_per_imcu(encoder, Int32($0))) }
    }

    deinit { pq_destroy(encoder) }

    /// Transforms and quantises iMCU rows `rows` (all in one part, following the rows the part
    /// has) from `planes` (`sizes[c]` samples each, rows packed; the rows they cover complete).
    /// The two parts may be encoded at once, each by one thread at a time.
    func encode(rows: Range<Int>, planes: [UnsafePointer<UInt8>], sizes: [PixelSize]) throws(PhotoError) {
        let status = withUnsafeTemporaryAllocation(of: Optional<UnsafePointer<UInt8>>.self, capacity: 3) { pointers in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 3) { strides in
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: 6) { dimensions in
                    for c in 0..<3 {
                        let plane = min(c, planes.count - 1)
                        pointers[c] = planes[plane]
                        strides[c] = sizes[plane].width
                        dimensions[c] = Int32(sizes[plane].width)
                        dimensions[3 + c] = Int32(sizes[plane].height)
                    }
                    return pq_encode_rows(encoder, pointers.baseAddress, strides.baseAddress, dimensions.baseAddress,
                                          dimensions.baseAddress! + 3, Int32(rows.lowerBound), Int32(rows.upperBound))
                }
            }
        }
        guard status == Int32(PQ_OK) else { throw failure() }
    }

    /// The file, once every row is encoded: the Huffman tables from both parts' symbols, then the
    /// parts written side by side on `workers` (one after the other without), joined.
    func finish(on workers: Workers?) throws(PhotoError) -> [UInt8] {
        guard pq_finish_tables(encoder) == Int32(PQ_OK) else { throw failure() }
        guard pq_parts(encoder) == 2 else { return Array(try write(part: 0)) }
        let top: Result<UnsafeBufferPointer<UInt8>, PhotoError>
        let bottom: Result<UnsafeBufferPointer<UInt8>, PhotoError>
        if let workers {
            let shared = HandedOver(self)
            let written = workers.sideBySide({ Result { () throws(PhotoError) in try self.write(part: 0) } },
                                             and: { HandedOver(Result { () throws(PhotoError) in try shared.value.write(part: 1) }) })
            (top, bottom) = (written.0, written.1.value)
        } else {
            top = Result { () throws(PhotoError) in try write(part: 0) }
            bottom = Result { () throws(PhotoError) in try write(part: 1) }
        }
        guard let whole = JPEGSplice.join(top: try top.get(), bottom: try bottom.get(), height: size.height,
                                          restartInterval: Int(pq_restart_interval(encoder))) else {
            throw .encodingFailed(.jpeg, detail: "the two parts of the JPEG could not be joined")
        }
        return whole
    }

    /// Part `part`'s bytes, in the encoder's buffer (valid while this lives).
    private func write(part: Int) throws(PhotoError) -> UnsafeBufferPointer<UInt8> {
        var output: UnsafePointer<UInt8>?
        var count = 0
        guard pq_write_part(encoder, Int32(part), &output, &count) == Int32(PQ_OK), let output else { throw failure() }
        return UnsafeBufferPointer(start: output, count: count)
    }

    private func failure() -> PhotoError {
        .encodingFailed(.jpeg, detail: "libjpeg: \(String(cString: pq_message(encoder)))")
    }
}
