import Dispatch
import Synchronization

/// Strip buffers for the decoder and the resizers: `slots` sets of one buffer per plane (one set of
/// one for interleaved pixels).
final class StripBuffers: @unchecked Sendable {
    private let buffers: [[UnsafeMutablePointer<UInt8>]]
    /// Per slot, for the reader's own bookkeeping (written before the slot is handed over, so the
    /// consumers' semaphore wait orders it before their reads).
    let reads: UnsafeMutablePointer<Int>

    init(sizes: [Int]) {
        buffers = (0..<StripPipeline.slots).map { _ in sizes.map { .allocate(capacity: $0) } }
        reads = .allocate(capacity: StripPipeline.slots)
        reads.initialize(repeating: 0, count: StripPipeline.slots)
    }

    deinit {
        buffers.joined().forEach { $0.deallocate() }
        reads.deallocate()
    }

    subscript(slot: Int, plane: Int) -> UnsafeMutablePointer<UInt8> { buffers[slot][plane] }

    /// Decodes up to `count` rows of iMCUs of `stream`'s planes into slot `slot`, one after another
    /// in each plane's buffer (`rowsPerRead` plane rows each), and notes how many in `reads[slot]`;
    /// returns the image rows they cover, 0 at the end.
    func fill(_ slot: Int, from stream: JPEGStream, planes: [JPEGPlane], reads count: Int) throws(PhotoError) -> Int {
        var rows = 0, done = 0
        while done < count {
            let read = try stream.readPlanes(into: (0..<planes.count).map { self[slot, $0] + done * planes[$0].stride * planes[$0].rowsPerRead })
            if read == 0 { break }
            rows += read
            done += 1
        }
        reads[slot] = done
        return rows
    }
    func slot(_ slot: Int) -> [UnsafeMutablePointer<UInt8>] { buffers[slot] }
}

/// Decodes strips on the calling thread while each consumer job resizes the previous strips for its
/// own column bands; with a single consumer everything runs on the calling thread, unless `handsOver`.
enum StripPipeline {
    /// Strips in flight: the decoder fills one while the consumers read the others.
    static let slots = 3

    private final class Shared: @unchecked Sendable {
        /// Rows in each slot, and the consumers still reading it.
        let state: Mutex<(counts: [Int], readers: [Int])>
        /// Starts at 0 and is signalled per slot: libdispatch traps when a semaphore is freed below its initial value.
        let free = DispatchSemaphore(value: 0)
        let filled: [DispatchSemaphore]

        init(consumers: Int) {
            state = Mutex((Array(repeating: 0, count: StripPipeline.slots), Array(repeating: 0, count: StripPipeline.slots)))
            filled = (0..<consumers).map { _ in DispatchSemaphore(value: 0) }
            for _ in 0..<StripPipeline.slots { free.signal() }
        }

        /// A consumer finished reading `slot`; the last one frees it.
        func release(_ slot: Int) {
            if state.withLock({ $0.readers[slot] -= 1; return $0.readers[slot] == 0 }) { free.signal() }
        }
    }

    /// - Parameters:
    ///   - consumers: how many jobs resize the strips, each for its own column bands.
    ///   - handsOver: a single consumer still runs as a job of its own (the calling thread's core is
    ///     the decoder's, and another core is free).
    ///   - workers: the decode's threads, which run the consumers beside the calling thread.
    ///   - read: decodes the next strip into slot `slot`'s buffers; returns its rows, 0 at the end.
    ///   - consume: consumer `consumer` resizes the strip in `slot` (`rows` rows) for its bands.
    static func run(consumers: Int, handsOver: Bool = false, on workers: Workers, read: (Int) throws(PhotoError) -> Int,
                    consume: @escaping @Sendable (_ consumer: Int, _ slot: Int, _ rows: Int) -> Void) throws(PhotoError) {
        if consumers == 1 && !handsOver {
            while case let count = try read(0), count > 0 { consume(0, 0, count) }
            return
        }
        let shared = Shared(consumers: consumers)
        let consumerJobs: [@Sendable () -> Void] = (0..<consumers).map { consumer in
            {
                var slot = 0
                while true {
                    shared.filled[consumer].wait()
                    let count = shared.state.withLock { $0.counts[slot] }
                    if count > 0 { consume(consumer, slot, count) }
                    shared.release(slot)
                    if count == 0 { break }
                    slot = (slot + 1) % slots
                }
            }
        }
        var failure: PhotoError?
        workers.sideBySide({
            var slot = 0
            while true {
                shared.free.wait()
                let count: Int
                do throws(PhotoError) {
                    count = try read(slot)
                } catch {
                    failure = error
                    count = 0
                }
                shared.state.withLock {
                    $0.counts[slot] = count
                    $0.readers[slot] = consumers
                }
                shared.filled.forEach { $0.signal() }
                if count == 0 { break }
                slot = (slot + 1) % slots
            }
        }, beside: consumerJobs)
        if let failure { throw failure }
    }
}
