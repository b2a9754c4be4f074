internal import CJPEGStream

/// Where libjpeg reads a JPEG from: bytes in memory, or an open file read through a window.
enum JPEGSource {
    case memory(UnsafeBufferPointer<UInt8>)
    /// With the file's bytes up to its first scan's header, as the probe read them
    /// (``JPEGFileHeader/read(_:)``).
    case file(PhotoFile, header: [UInt8])

    /// The segments before the entropy-coded data (in memory, the first ``JPEGFileHeader/firstRead``
    /// bytes, which hold them in any camera file), without reading the file again.
    var header: [UInt8] {
        switch self {
        case .memory(let data): Array(data.prefix(JPEGFileHeader.firstRead))
        case .file(_, let header): header
        }
    }

    var count: Int {
        switch self {
        case .memory(let data): data.count
        case .file(let file, _): file.size
        }
    }

    /// Whether the data ends with an EOI marker.
    var endsWithEOI: Bool {
        switch self {
        case .memory(let data): data.count >= 2 && data[data.count - 2] == 0xFF && data[data.count - 1] == 0xD9
        case .file(let file, _): file.size >= 2 && (try? file.read((file.size - 2)..<file.size)) == [0xFF, 0xD9]
        }
    }
}

/// One libjpeg decompression, owned: the C handle is freed in `deinit`.
///
/// The bytes (or the file) must stay alive and unmoved while the stream exists (libjpeg reads them in place).
final class JPEGStream {
    private let handle: OpaquePointer
    let width: Int
    let height: Int
    /// Channels delivered by ``read(into:stride:rows:)``: 1 (gray) or 3 (RGB; CMYK is converted).
    let channels: Int
    /// When the stream was asked for planes and the file is YCbCr: Y, Cb and Cr as stored, read
    /// with ``readPlanes(into:)`` instead of ``read(into:stride:rows:)``.
    let planes: [JPEGPlane]?
    private let isCMYK: Bool
    private var cmykStrip: [UInt8] = []

    /// Progressive files with more scans than this are refused (hostile files use thousands).
    static let maxScans: Int32 = 500

    /// Progressive and multi-scan files keep every DCT coefficient in memory (128 bytes per 8×8
    /// block); that much is allowed up to this floor whatever the file's size (about 11 MP at 4:2:0)…
    static let coefficientFloor: UInt64 = 32 << 20
    /// …and beyond it, this many bytes per byte of file. Huffman coding spends at least one bit
    /// on every block (its DC difference), so a whole file can never need more than 1024; a
    /// header declaring more than twice that is a bomb or a file cut short, refused before libjpeg
    /// allocates for it.
    static let coefficientBytesPerFileByte: UInt64 = 2048

    /// - Parameter planes: deliver YCbCr planes (no chroma upsampling or colour conversion) when the
    ///   file is YCbCr; other files still deliver pixels.
    convenience init(_ data: UnsafeBufferPointer<UInt8>, scaleDenominator: Int, planes wantsPlanes: Bool = false) throws(PhotoError) {
        try self.init(.memory(data), scaleDenominator: scaleDenominator, planes: wantsPlanes)
    }

    /// - Parameter planes: deliver YCbCr planes (no chroma upsampling or colour conversion) when the
    ///   file is YCbCr; other files still deliver pixels.
    convenience init(_ source: JPEGSource, scaleDenominator: Int, planes wantsPlanes: Bool = false) throws(PhotoError) {
        try self.init(source) { handle, maxCoefficients in
            switch source {
            case .memory(let data):
                pj_begin(handle, data.baseAddress, UInt(data.count), Int32(scaleDenominator), Self.maxScans, maxCoefficients, wantsPlanes ? 1 : 0)
            case .file(let file, _):
                pj_begin_fd(handle, file.descriptor, Int32(scaleDenominator), Self.maxScans, maxCoefficients, wantsPlanes ? 1 : 0)
            }
        }
    }

    /// Planes of the JPEG made of `prefix` and then `ranges` of the source read one after another:
    /// a band of rows cut at a restart marker (``JPEGRestartBands``: a header of its own, then the
    /// file from the marker on), or a progressive file's scans of some components
    /// (``JPEGScanScript``). With `components` (bit 0: Y, 1: Cb, 2: Cr), only those planes are
    /// decoded; the others' strips are left as they were by ``readPlanes(into:)``. `firstRestart`:
    /// the number (0–7) of the first restart marker the data meets (a band cut after the file's own
    /// markers up to it).
    convenience init(prefix: [UInt8] = [], ranges: [Range<Int>], of source: JPEGSource, components: Int32 = 0,
                     firstRestart: Int = 0, scaleDenominator: Int) throws(PhotoError) {
        let bounds = ranges.flatMap { [Int64($0.lowerBound), Int64($0.upperBound)] }
        try self.init(source) { handle, maxCoefficients in
            pj_set_first_restart(handle, Int32(firstRestart))
            return prefix.withUnsafeBufferPointer { prefix in
                bounds.withUnsafeBufferPointer { bounds in
                    switch source {
                    case .memory(let data):
                        pj_begin_ranges(handle, prefix.baseAddress, UInt(prefix.count), data.baseAddress, -1, bounds.baseAddress,
                                        Int32(ranges.count), components, Int32(scaleDenominator), Self.maxScans, maxCoefficients)
                    case .file(let file, _):
                        pj_begin_ranges(handle, prefix.baseAddress, UInt(prefix.count), nil, file.descriptor, bounds.baseAddress,
                                        Int32(ranges.count), components, Int32(scaleDenominator), Self.maxScans, maxCoefficients)
                    }
                }
            }
        }
    }

    /// Starts a decompression with `begin` (one of the pj_begin functions, given the handle and the
    /// coefficient limit for the source's size).
    private init(_ source: JPEGSource, begin: (OpaquePointer, UInt64) -> Int32) throws(PhotoError) {
        try CodecLibrary.jpeg.load()
        guard let handle = pj_create() else { throw .corrupt(.jpeg, detail: "libjpeg could not start") }
        self.handle = handle
        let maxCoefficients = max(Self.coefficientFloor, UInt64(source.count) * Self.coefficientBytesPerFileByte)
        let status = begin(handle, maxCoefficients)
        if status != Int32(PJ_OK) {
            let error = status == Int32(PJ_TOO_LITTLE_DATA)
                ? Self.tooLittleData(handle, source: source)
                : Self.error(message: String(cString: pj_message(handle)), warnings: pj_warnings(handle))
            pj_destroy(handle)
            throw error
        }
        width = Int(pj_output_width(handle))
        height = Int(pj_output_height(handle))
        isCMYK = pj_output_layout(handle) == Int32(PJ_CMYK)
        channels = pj_output_layout(handle) == Int32(PJ_GRAY) ? 1 : 3
        planes = pj_output_layout(handle) != Int32(PJ_PLANES) ? nil : (0..<3).map { c in
            let component = Int32(c)
            return JPEGPlane(size: PixelSize(width: Int(pj_plane_width(handle, component)), height: Int(pj_plane_height(handle, component))),
                             stride: Int(pj_plane_stride(handle, component)), rowsPerRead: Int(pj_plane_rows(handle, component)))
        }
    }

    /// The header declares far more blocks than the file has bytes for: cut short when the file
    /// does not end with EOI, otherwise damaged.
    private static func tooLittleData(_ handle: OpaquePointer, source: JPEGSource) -> PhotoError {
        let needed = pj_coefficient_bytes(handle) / coefficientBytesPerFileByte
        let detail = "the header declares \(pj_image_width(handle))×\(pj_image_height(handle)) pixels, but \(ByteFormat.string(source.count)) "
            + "of data cannot hold that many (it would take at least \(ByteFormat.string(Int(needed))))"
        return source.endsWithEOI ? .corrupt(.jpeg, detail: detail) : .truncated(.jpeg, detail: detail)
    }

    deinit { pj_destroy(handle) }

    /// Decodes up to `rows` scanlines into `buffer`; returns how many, 0 at the end.
    /// - Throws: truncated or corrupt, as soon as libjpeg reports it.
    func read(into buffer: UnsafeMutablePointer<UInt8>, stride: Int, rows: Int) throws(PhotoError) -> Int {
        let count: Int32
        if isCMYK {
            if cmykStrip.count < width * 4 * rows { cmykStrip = [UInt8](repeating: 0, count: width * 4 * rows) }
            count = cmykStrip.withUnsafeMutableBufferPointer { pj_read(handle, $0.baseAddress, width * 4, Int32(rows)) }
            if count > 0 {
                cmykStrip.withUnsafeBufferPointer { cmyk in
                    for row in 0..<Int(count) {
                        CMYK.toRGB(cmyk.baseAddress! + row * width * 4, buffer + row * stride, pixels: width)
                    }
                }
            }
        } else {
            count = pj_read(handle, buffer, stride, Int32(rows))
        }
        try check(failed: count < 0)
        return Int(count)
    }

    /// Decodes the next row of iMCUs into one strip buffer per plane (`planes[c].stride` bytes per
    /// row, `planes[c].rowsPerRead` rows); returns the image rows it covers, 0 at the end. Rows of a
    /// plane past its height are not valid.
    func readPlanes(into strips: [UnsafeMutablePointer<UInt8>]) throws(PhotoError) -> Int {
        guard let planes, strips.count == 3 else { preconditionFailure("readPlanes needs a stream that delivers three planes") }
        let count = withUnsafeTemporaryAllocation(of: Optional<UnsafeMutablePointer<UInt8>>.self, capacity: 3) { pointers in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 3) { strides in
                for c in 0..<3 {
                    pointers[c] = strips[c]
                    strides[c] = planes[c].stride
                }
                return pj_read_planes(handle, pointers.baseAddress, strides.baseAddress)
            }
        }
        try check(failed: count < 0)
        return Int(count)
    }

    /// Reads to the end of the file (EOI); a file without one is truncated.
    func finish() throws(PhotoError) {
        try check(failed: pj_finish(handle) != Int32(PJ_OK))
    }

    /// Throws on an error, and on the warnings the policy makes fatal: the file ends early, a scan's
    /// data stops before its last block, or the entropy-coded data is damaged (libjpeg carries on
    /// and paints grey or garbled blocks). "Extraneous bytes before marker" is tolerated, as the
    /// corpus expects of real camera files.
    private func check(failed: Bool) throws(PhotoError) {
        let warnings = pj_warnings(handle)
        if failed || warnings & Int32(PJ_WARN_FATAL) != 0 {
            throw Self.error(message: String(cString: pj_message(handle)), warnings: warnings)
        }
    }

    /// libjpeg's error or warning, as truncated (the data stops) or corrupt (the data is wrong).
    static func error(message: String, warnings: Int32) -> PhotoError {
        let lower = message.lowercased()
        if warnings & Int32(PJ_WARN_PREMATURE_END) != 0 {
            return .truncated(.jpeg, detail: "libjpeg-turbo: Premature end of JPEG file")
        }
        // `message` is the first fatal warning: "premature end of data segment" is the data
        // stopping; a bad Huffman code or a lost restart marker before it is damage.
        if lower.contains("premature end") {
            return .truncated(.jpeg, detail: "libjpeg-turbo: \(message)")
        }
        if lower.contains("empty jpeg image") || lower.contains("dnl not supported") {
            return .invalidDimensions(width: 0, height: 0)
        }
        return .corrupt(.jpeg, detail: "libjpeg-turbo: \(message.isEmpty ? "unknown error" : message)")
    }
}

/// One colour plane of a JPEG at the output scale, and how the decoder hands it out.
struct JPEGPlane: Sendable, Equatable {
    /// Valid samples (chroma planes are smaller when the file subsamples them).
    let size: PixelSize
    /// Bytes per row of a strip buffer (whole DCT blocks: at least `size.width`).
    let stride: Int
    /// Rows of this plane each ``JPEGStream/readPlanes(into:)`` writes.
    let rowsPerRead: Int
}

/// Adobe CMYK JPEGs store inverted ink values: RGB = inverted C/M/Y scaled by inverted K.
enum CMYK {
    static func toRGB(_ cmyk: UnsafePointer<UInt8>, _ rgb: UnsafeMutablePointer<UInt8>, pixels: Int) {
        for i in 0..<pixels {
            let k = UInt32(cmyk[i * 4 + 3])
            for c in 0..<3 {
                rgb[i * 3 + c] = UInt8((UInt32(cmyk[i * 4 + c]) * k + 127) / 255)
            }
        }
    }
}
