internal import CJPEGStream
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// Encodes a JPEG from planes while they are still being resized: every row of iMCUs (16 image rows
/// at 4:2:0) is encoded by the encoder's one job (``start(on:)``) as soon as every band of every plane has finished it, so
/// encoding overlaps decoding instead of following it. Only for upright output (other
/// orientations complete their upright rows only at the end). Without restart markers, the bytes are
/// tjCompressFromYUVPlanes'.
///
/// Or, `inline`, with no job of its own: the thread whose report makes rows ready encodes them
/// then and there, unless another is already encoding (which then takes them too, before it lets
/// go). For the row bands (``RowBandsJPEGEncoding``), two threads on two cores: an encoding
/// thread each beside them would take turns with the decoders, and the band whose core also ran
/// more of the encoding would finish late.
final class StreamedJPEGEncoding: @unchecked Sendable {
    private let encoder: OpaquePointer
    private let planes: [UnsafePointer<UInt8>]
    private let strides: [Int]
    private let heights: [Int]
    private let rowsPerIMCU: [Int]
    private let imcuRows: Int
    /// Rows finished by each band of each plane; iMCU rows the thread was woken for (or, inline,
    /// that are ready); inline, whether a thread is encoding.
    private let progress: Mutex<(rows: [[Int]], announced: Int, stopped: Bool, encoding: Bool)>
    private let inline: Bool
    private let wake = DispatchSemaphore(value: 0)
    private let done = DispatchGroup()
    private var failure: String?
    /// The finished file, in libjpeg's buffer (freed with the encoder).
    private var ended: UnsafeBufferPointer<UInt8>?

    /// - Parameters:
    ///   - planes: the output planes (`sizes[c]` samples each, rows packed), filled while this runs.
    ///   - bands: how many column bands write each plane.
    ///   - restartRows: a restart marker every that many rows of MCUs (0: none).
    ///   - inline: rows are encoded by the threads that report them (no `start(on:)`).
    init(size: PixelSize, subsampling: ChromaSubsampling, options: EncodingOptions, planes: [UnsafeMutablePointer<UInt8>],
         sizes: [PixelSize], bands: [Int], restartRows: Int = 0, inline: Bool = false) throws(PhotoError) {
        try CodecLibrary.jpeg.load()
        guard let encoder = pj_encoder_create(Int32(size.width), Int32(size.height), subsampling == .full ? 1 : 0,
                                              Int32(min(100, max(1, options.quality))), options.progressive ? 1 : 0,
                                              Int32(restartRows)) else {
            throw .encodingFailed(.jpeg, detail: "libjpeg could not start a \(size) JPEG")
        }
        self.encoder = encoder
        self.planes = planes.map { UnsafePointer($0) }
        strides = sizes.map(\.width)
        heights = sizes.map(\.height)
        rowsPerIMCU = (0..<3).map { Int(pj_encoder_plane_rows_per_imcu(encoder, Int32($0))) }
        imcuRows = Int(pj_encoder_imcu_rows(encoder))
        progress = Mutex((bands.map { Array(repeating: 0, count: $0) }, 0, false, false))
        self.inline = inline
    }

    deinit { pj_encoder_destroy(encoder) }

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

    /// Band `band` of plane `plane` has finished its first `rows` rows. The thread is woken only when
    /// a whole iMCU row more is ready in every plane: waking it for every few rows (each band reports
    /// after every batch of source rows it filters) made thread switching a visible share of a prepare.
    func finished(plane: Int, band: Int, rows: Int) {
        let wakes = progress.withLock { state -> Bool in
            // Never lower: two bands' threads may report through one caller out of order.
            state.rows[plane][band] = max(state.rows[plane][band], rows)
            let ready = readyIMCURows(state.rows)
            guard ready > state.announced else { return false }
            state.announced = ready
            return true
        }
        guard wakes else { return }
        if inline { encodeReadyRows() } else { wake.signal() }
    }

    /// Inline: encodes the ready iMCU rows on this thread, and any that become ready meanwhile,
    /// unless another thread is at it (it sees these rows before it lets go: the check and the
    /// letting go are one step under the lock).
    private func encodeReadyRows() {
        // `done` is entered while a thread encodes, so `abandon` and `finished` wait for it.
        let mine = progress.withLock { state -> Bool in
            guard !state.encoding, !state.stopped else { return false }
            state.encoding = true
            done.enter()
            return true
        }
        guard mine else { return }
        var written = Int(pj_encoder_written_imcu_rows(encoder))
        while true {
            let ready = progress.withLock { state -> Int? in
                guard state.announced > written, !state.stopped, failure == nil else {
                    state.encoding = false
                    done.leave()
                    return nil
                }
                return state.announced
            }
            guard let ready else { return }
            if !write(upTo: ready) { continue }
            written = Int(pj_encoder_written_imcu_rows(encoder))
        }
    }

    /// iMCU rows whose rows every band of every plane has finished.
    private func readyIMCURows(_ rows: [[Int]]) -> Int {
        var ready = imcuRows
        for plane in 0..<rows.count {
            let done = rows[plane].min() ?? 0
            ready = min(ready, done >= heights[plane] ? imcuRows : done / rowsPerIMCU[plane])
        }
        return ready
    }

    /// Stops the thread early (the decode failed: it must not wait for rows that will never come)
    /// and waits for it to end (inline: for a thread still encoding; none starts after); what it
    /// made is dropped.
    func abandon() {
        progress.withLock { $0.stopped = true }
        wake.signal()
        done.wait()
    }

    private func run() {
        while true {
            wake.wait()
            let (ready, stopped) = progress.withLock { ($0.announced, $0.stopped) }
            if stopped { return }
            guard write(upTo: ready) else { return }
            if Int(pj_encoder_written_imcu_rows(encoder)) == imcuRows { return }
        }
    }

    /// Encodes iMCU rows up to `ready`; `false` (and `failure` set) if libjpeg failed.
    private func write(upTo ready: Int) -> Bool {
        let status = withUnsafeTemporaryAllocation(of: Optional<UnsafePointer<UInt8>>.self, capacity: 3) { pointers in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 3) { strideBuffer in
                for c in 0..<3 {
                    pointers[c] = planes[c]
                    strideBuffer[c] = strides[c]
                }
                return pj_encoder_write(encoder, pointers.baseAddress, strideBuffer.baseAddress, Int32(ready))
            }
        }
        guard status == Int32(PJ_OK) else {
            failure = String(cString: pj_encoder_message(encoder))
            return false
        }
        return true
    }

    /// The JPEG, once every row has been encoded (waits for the thread).
    func result() throws(PhotoError) -> [UInt8] {
        Array(try finished())
    }

    /// The JPEG in libjpeg's own buffer, valid while this encoding lives, once every row has been
    /// encoded (waits for the thread, or inline for a thread still encoding; the rows must all have
    /// been reported). The file is ended once, on the first call.
    func finished() throws(PhotoError) -> UnsafeBufferPointer<UInt8> {
        done.wait()
        if let failure { throw .encodingFailed(.jpeg, detail: "libjpeg: \(failure)") }
        if let ended { return ended }
        var output: UnsafePointer<UInt8>?
        var size: UInt = 0
        guard pj_encoder_finish(encoder, &output, &size) == Int32(PJ_OK), let output else {
            let message = String(cString: pj_encoder_message(encoder))
            failure = message
            throw .encodingFailed(.jpeg, detail: "libjpeg: \(message)")
        }
        let file = UnsafeBufferPointer(start: output, count: Int(size))
        ended = file
        return file
    }
}
