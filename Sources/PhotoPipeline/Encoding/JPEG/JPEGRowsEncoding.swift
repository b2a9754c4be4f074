import Dispatch
import Synchronization

/// Encodes a range of a ``JPEGWriter``'s iMCU rows while the planes are still being resized: every
/// row of iMCUs (16 image rows at 4:2:0) is transformed and quantised as soon as every band of
/// every plane has finished it, so encoding overlaps decoding instead of following it. Only for
/// upright output (other orientations complete their upright rows only at the end).
///
/// Either by a job of its own (``start(on:)``), which spends its time waiting for rows, or
/// `inline`: the thread whose report makes rows ready encodes them then and there, unless another
/// is already encoding (which then takes them too, before it lets go). For the row bands
/// (``JPEGPlanesEncoder``), each band's thread encodes its own part: an encoding thread each
/// beside them would take turns with the decoders, and the band whose core also ran more of the
/// encoding would finish late.
final class JPEGRowsEncoding: @unchecked Sendable {
    private let writer: JPEGWriter
    /// The iMCU rows this encodes.
    private let rows: Range<Int>
    private let planes: [UnsafePointer<UInt8>]
    private let sizes: [PixelSize]
    /// Rows finished by each band of each plane (counted from the plane's top); iMCU rows the job
    /// was woken for (or, inline, that are ready); inline, whether a thread is encoding.
    private let progress: Mutex<(rows: [[Int]], announced: Int, stopped: Bool, encoding: Bool)>
    private let inline: Bool
    private let wake = DispatchSemaphore(value: 0)
    private let done = DispatchGroup()
    /// The next row to encode; touched only by the thread that encodes.
    private var next: Int
    private var failure: PhotoError?

    /// - Parameters:
    ///   - planes: the output planes (`sizes[c]` samples each, rows packed), filled while this runs.
    ///   - bands: how many column bands write each plane.
    ///   - start: the rows each plane's bands begin at (0, or where a row band begins).
    ///   - inline: rows are encoded by the threads that report them (no `start(on:)`).
    init(_ writer: JPEGWriter, rows: Range<Int>, planes: [UnsafeMutablePointer<UInt8>], sizes: [PixelSize], bands: [Int],
         start: [Int]? = nil, inline: Bool = false) {
        self.writer = writer
        self.rows = rows
        self.planes = planes.map { UnsafePointer($0) }
        self.sizes = sizes
        let first = start ?? Array(repeating: 0, count: planes.count)
        progress = Mutex((bands.enumerated().map { Array(repeating: first[$0.offset], count: $0.element) }, rows.lowerBound, false, false))
        self.inline = inline
        next = rows.lowerBound
    }

    /// Starts the encoding job on `workers`: a thread of its own, as it spends its time waiting
    /// for rows. Inline, there is none.
    func start(on workers: Workers) {
        guard !inline else { return }
        done.enter()
        workers.start { [self] in
            run()
            done.leave()
        }
    }

    /// Band `band` of plane `plane` has finished its rows up to `finished` (a row of the whole
    /// plane). The job is woken only when a whole iMCU row more is ready in every plane: waking it
    /// for every few rows (each band reports after every batch of source rows it filters) made
    /// thread switching a visible share of a prepare.
    func finished(plane: Int, band: Int, rows finished: Int) {
        let wakes = progress.withLock { state -> Bool in
            // Never lower: two bands' threads may report through one caller out of order.
            state.rows[plane][band] = max(state.rows[plane][band], finished)
            let ready = readyRows(state.rows)
            guard ready > state.announced else { return false }
            state.announced = ready
            return true
        }
        guard wakes else { return }
        if inline { encodeReadyRows() } else { wake.signal() }
    }

    /// The first iMCU row (of `rows`) not yet complete in every band of every plane.
    private func readyRows(_ finished: [[Int]]) -> Int {
        var ready = rows.upperBound
        for plane in 0..<finished.count {
            let done = finished[plane].min() ?? 0
            ready = min(ready, done >= sizes[plane].height ? writer.imcuRows : done / writer.rowsPerIMCU[plane])
        }
        return max(ready, rows.lowerBound)
    }

    /// Inline: encodes the ready rows on this thread, and any that become ready meanwhile, unless
    /// another thread is at it (it sees these rows before it lets go: the check and the letting go
    /// are one step under the lock).
    private func encodeReadyRows() {
        // `done` is entered while a thread encodes, so `abandon` and `result` wait for it.
        let mine = progress.withLock { state -> Bool in
            guard !state.encoding, !state.stopped else { return false }
            state.encoding = true
            done.enter()
            return true
        }
        guard mine else { return }
        while true {
            let ready = progress.withLock { state -> Int? in
                guard state.announced > next, !state.stopped, failure == nil else {
                    state.encoding = false
                    done.leave()
                    return nil
                }
                return state.announced
            }
            guard let ready else { return }
            encode(upTo: ready)
        }
    }

    private func run() {
        while next < rows.upperBound {
            wake.wait()
            let (ready, stopped) = progress.withLock { ($0.announced, $0.stopped) }
            if stopped { return }
            encode(upTo: ready)
            if failure != nil { return }
        }
    }

    /// Encodes rows up to `ready`, each part's rows in one call.
    private func encode(upTo ready: Int) {
        while next < ready, failure == nil {
            let end = next < writer.splitRow ? min(ready, writer.splitRow) : ready
            do throws(PhotoError) {
                try writer.encode(rows: next..<end, planes: planes, sizes: sizes)
                next = end
            } catch {
                failure = error
            }
        }
    }

    /// Stops the job early (the decode failed: it must not wait for rows that will never come)
    /// and waits for it to end (inline: for a thread still encoding; none starts after).
    func abandon() {
        progress.withLock { $0.stopped = true }
        wake.signal()
        done.wait()
    }

    /// Waits until every row is encoded (the job, or inline a thread still encoding; every row
    /// must have been reported); throws what the encoder reported.
    func wait() throws(PhotoError) {
        done.wait()
        if let failure { throw failure }
        guard next == rows.upperBound else {
            throw .encodingFailed(.jpeg, detail: "only \(next - rows.lowerBound) of \(rows.count) rows of blocks were encoded")
        }
    }
}
