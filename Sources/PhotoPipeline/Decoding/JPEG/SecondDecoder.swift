import Dispatch
import Synchronization

/// A second libjpeg decompressor on a thread of its own, for the two ways one JPEG is decoded on
/// two cores: a bottom band of rows cut at a restart marker, or a progressive file's
/// chroma. It opens its stream at once (finding its cut, or reading its scans), while the calling
/// thread opens its own and sets up the resizers; then it decodes into the resizers it is given.
///
/// Used from one thread: `start`, `waitForStream`, then `decode` or not, then `finish`, which ends
/// the thread. The stop flag is shared with the calling thread's own decode: whichever fails sets
/// it, and the other stops instead of decoding on for nothing.
final class SecondDecoder: @unchecked Sendable {
    let stop = StopFlag()
    /// Runs once, on the decoder's thread (the source it reads stays alive and unmoved until `finish`).
    private let open: () throws(PhotoError) -> JPEGStream
    private let opened = DispatchSemaphore(value: 0)
    private let told = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private var stream: Result<JPEGStream, PhotoError>?
    private var work: (planes: [JPEGPlane], resizers: [PlaneResizer?])?
    private var failure: PhotoError?
    private var isTold = false, isFinished = false

    init(open: @escaping () throws(PhotoError) -> JPEGStream) {
        self.open = open
    }

    func start() {
        // A thread of its own: it waits (for its orders, for the resizers), and on the global
        // queue, under several prepares at once, it could first wait for libdispatch to add a worker.
        DetachedThread.start { [self] in
            do throws(PhotoError) { stream = .success(try open()) } catch { stream = .failure(error) }
            opened.signal()
            told.wait()
            if case .success(let stream) = stream, let work, !stop.isSet {
                failure = DecodeIntoResizers.run(stream, planes: work.planes, resizers: work.resizers, mcuRows: nil, stop: stop)
            } else if case .failure(let error) = stream {
                failure = error
            } else {
                failure = .corrupt(.jpeg, detail: "the second decompressor was stopped")
            }
            if failure != nil { stop.set() }
            done.signal()
        }
    }

    /// The stream once it is open, or why it could not be.
    func waitForStream() -> Result<JPEGStream, PhotoError> {
        opened.wait()
        return stream!
    }

    /// Decodes the stream's planes into `resizers` (`nil` for a plane it does not decode), on its thread.
    func decode(planes: [JPEGPlane], resizers: [PlaneResizer?]) {
        work = (planes, resizers)
        isTold = true
        told.signal()
    }

    /// Waits for the thread to end (telling it to stop first if it was never told to decode), and
    /// returns its failure.
    func finish() -> PhotoError? {
        if isFinished { return failure }
        if !isTold {
            stop.set()
            isTold = true
            told.signal()
        }
        done.wait()
        isFinished = true
        return failure
    }
}

/// Set by the decoder that fails, so that the other stops instead of decoding on for nothing.
final class StopFlag: Sendable {
    private let flag = Atomic(false)
    var isSet: Bool { flag.load(ordering: .relaxed) }
    func set() { flag.store(true, ordering: .relaxed) }
}

/// Decodes a stream's rows straight into resizers, an MCU row at a time.
enum DecodeIntoResizers {
    /// - Parameters:
    ///   - resizers: one per plane; `nil` for a plane the stream does not decode.
    ///   - mcuRows: MCU rows to read; `nil`: all, then the end of the data is checked.
    static func run(_ stream: JPEGStream, planes: [JPEGPlane], resizers: [PlaneResizer?], mcuRows: Int?,
                    stop: StopFlag) -> PhotoError? {
        let strips = planes.map { UnsafeMutablePointer<UInt8>.allocate(capacity: $0.stride * $0.rowsPerRead) }
        defer { strips.forEach { $0.deallocate() } }
        do throws(PhotoError) {
            var read = 0
            while mcuRows.map({ read < $0 }) ?? true {
                if stop.isSet { return .truncated(.jpeg, detail: "the other decompressor failed") }
                guard try stream.readPlanes(into: strips) > 0 else { break }
                for c in 0..<3 { resizers[c]?.push(strips[c], count: planes[c].rowsPerRead, stride: planes[c].stride) }
                read += 1
            }
            if mcuRows == nil { try stream.finish() }
            return nil
        } catch {
            stop.set()
            return error
        }
    }
}
