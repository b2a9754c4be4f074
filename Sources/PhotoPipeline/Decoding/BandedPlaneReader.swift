import Dispatch
import Synchronization

/// What ``JPEGDecoder`` reads Y, Cb and Cr planes from: one decompressor, or several over the
/// bands of a file cut at its restart markers.
protocol PlaneReading: AnyObject {
    /// The whole image's planes at the output scale.
    var planeLayout: [JPEGPlane] { get }
    /// The whole image's decoded size.
    var decodedSize: PixelSize { get }
    /// The next row of iMCUs into one strip buffer per plane; image rows covered, 0 at the end.
    func readPlanes(into strips: [UnsafeMutablePointer<UInt8>]) throws(PhotoError) -> Int
    /// Reads to the end of the data; throws for a file that is damaged or cut short there.
    func finish() throws(PhotoError)
}

extension JPEGStream: PlaneReading {
    var planeLayout: [JPEGPlane] { planes ?? [] }
    var decodedSize: PixelSize { PixelSize(width: width, height: height) }
}

/// The bands of a ``JPEGRestartBands`` cut, decoded at once: the first band on the caller's
/// thread, straight into the strips, the others on their own threads into buffers handed out,
/// in order, once the first is done. Rows come out exactly as one decompressor gives them.
final class BandedPlaneReader: PlaneReading {
    private let first: JPEGStream
    private let rest: [BufferedBand]
    private var current = 0
    private var firstDone = false
    let planeLayout: [JPEGPlane]
    let decodedSize: PixelSize

    /// - Parameter bands: one decompressor per band, top to bottom, all at the same scale and
    ///   delivering planes of the same widths.
    init?(_ bands: [JPEGStream]) {
        guard bands.count >= 2, let layout = bands[0].planes, layout.count == 3,
              bands.allSatisfy({ $0.planes?.count == 3 && $0.planes?.map(\.stride) == layout.map(\.stride)
                  && $0.planes?.map(\.rowsPerRead) == layout.map(\.rowsPerRead) && $0.width == bands[0].width }) else { return nil }
        first = bands[0]
        planeLayout = (0..<3).map { c in
            JPEGPlane(size: PixelSize(width: layout[c].size.width, height: bands.reduce(0) { $0 + $1.planes![c].size.height }),
                      stride: layout[c].stride, rowsPerRead: layout[c].rowsPerRead)
        }
        decodedSize = PixelSize(width: bands[0].width, height: bands.reduce(0) { $0 + $1.height })
        rest = bands.dropFirst().map { BufferedBand($0) }
        for band in rest { band.start() }
    }

    func readPlanes(into strips: [UnsafeMutablePointer<UInt8>]) throws(PhotoError) -> Int {
        if !firstDone {
            let rows = try first.readPlanes(into: strips)
            if rows > 0 { return rows }
            try first.finish()
            firstDone = true
        }
        while current < rest.count {
            if let rows = try rest[current].next(into: strips, layout: planeLayout) { return rows }
            current += 1
        }
        return 0
    }

    func finish() throws(PhotoError) {
        for band in rest { try band.wait() }
    }

    deinit {
        // Never leave a band's thread running over a decompressor that is freed.
        for band in rest { _ = try? band.wait() }
    }
}

/// One band decoded on its own thread, every read kept until it is handed out.
private final class BufferedBand: @unchecked Sendable {
    private let stream: JPEGStream
    private let done = DispatchSemaphore(value: 0)
    private var waited = false
    /// Each read: one buffer holding its rows of the three planes, one after another, and its image rows.
    private var reads: [(buffer: [UInt8], rows: Int)] = []
    private var failure: PhotoError?
    private var next = 0

    init(_ stream: JPEGStream) { self.stream = stream }

    func start() {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let planes = stream.planes!
            let sizes = planes.map { $0.stride * $0.rowsPerRead }
            do throws(PhotoError) {
                while true {
                    var buffer = [UInt8](repeating: 0, count: sizes.reduce(0, +))
                    let rows = try buffer.withUnsafeMutableBufferPointer { (all) throws(PhotoError) -> Int in
                        let base = all.baseAddress!
                        return try stream.readPlanes(into: [base, base + sizes[0], base + sizes[0] + sizes[1]])
                    }
                    if rows == 0 { break }
                    reads.append((buffer, rows))
                }
                try stream.finish()
            } catch {
                failure = error
            }
            done.signal()
        }
    }

    /// Waits for the band to be decoded; throws its failure.
    func wait() throws(PhotoError) {
        if !waited {
            done.wait()
            waited = true
        }
        if let failure { throw failure }
    }

    /// Copies the next read into `strips`; `nil` once every read was handed out.
    func next(into strips: [UnsafeMutablePointer<UInt8>], layout: [JPEGPlane]) throws(PhotoError) -> Int? {
        try wait()
        guard next < reads.count else { return nil }
        let read = reads[next]
        next += 1
        read.buffer.withUnsafeBufferPointer { all in
            var offset = 0
            for c in 0..<3 {
                let size = layout[c].stride * layout[c].rowsPerRead
                strips[c].update(from: all.baseAddress! + offset, count: size)
                offset += size
            }
        }
        return read.rows
    }
}
