import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The threads of one decode: the only place in the pipeline where a thread is started.
///
/// ``PhotoPipeline`` makes one per photo, in its plan (``PreparePlan``): the decode, the resize
/// and the encoder alongside get it with the ``ResizeRequest``. Decoders, resizers and encoders
/// describe the work they do side by side as jobs and give them to it (``sideBySide(_:beside:)``,
/// ``forEach(_:_:)``, ``start(_:)``); none starts a thread of its own. The C codecs' own threads
/// are theirs: libde265's and dav1d's inside a lone HEVC or AV1 image, sized from the request's
/// thread count, and libheif's when it decodes a file our planar path declines. Every job has
/// ended before the pipeline's decode returns (``waitForAll()``).
///
/// Each job gets a thread of its own, not a pool's: jobs wait for one another (a resizer for the
/// decoder's next strip, the encoder for finished rows), and a pool with fewer free threads than
/// waiting jobs stalls. On libdispatch's global queue, under several prepares at once, a waiting job
/// could first wait for libdispatch to add a worker.
final class Workers: Sendable {
    private let state = Mutex((started: 0, running: 0, peak: 0))
    private let all = DispatchGroup()

    init() {}

    /// Runs `here` on the calling thread and each job of `beside` on a thread of its own, all at
    /// once, and returns when every one has ended.
    func sideBySide(_ here: () -> Void, beside: [@Sendable () -> Void]) {
        let group = DispatchGroup()
        for job in beside {
            group.enter()
            launch(job, ended: { group.leave() })
        }
        here()
        group.wait()
    }

    /// Runs `here` on the calling thread and `other` on a thread of its own, at once, and returns
    /// both results when both have ended (`other`'s is handed over after the wait, never shared).
    func sideBySide<Here, Other>(_ here: () -> Here, and other: @escaping @Sendable () -> Other) -> (Here, Other) {
        let output = JobOutput<Other>()
        var mine: Here?
        sideBySide({ mine = here() }, beside: [{ output.value = other() }])
        return (mine!, output.value!)
    }

    /// Runs `body(0)` … `body(count - 1)` at once, `body(0)` on the calling thread, and returns
    /// when every one has ended (nothing when `count` is 0).
    func forEach(_ count: Int, _ body: @Sendable (Int) -> Void) {
        guard count > 0 else { return }
        withoutActuallyEscaping(body) { body in
            // Safe to escape: `sideBySide` returns only once every job has ended and let go of it.
            sideBySide({ body(0) }, beside: (1..<count).map { index in { body(index) } })
        }
    }

    /// Starts `job` beside the calling thread. Its owner waits for it itself (the encoder alongside
    /// ends when the last row is reported); ``waitForAll()`` waits for it too.
    func start(_ job: @escaping @Sendable () -> Void) {
        launch(job)
    }

    /// Waits until every job started so far has ended.
    func waitForAll() {
        all.wait()
    }

    /// Threads started so far, the most that ran at once, and how many run now (the calling
    /// thread is never counted).
    var counts: (started: Int, peak: Int, running: Int) {
        state.withLock { ($0.started, $0.peak, $0.running) }
    }

    /// A job on its way to its thread. It lets go of its body before it reports the end, so that
    /// nothing the body captured outlives the wait for it (``forEach(_:_:)`` relies on that).
    private final class Job: @unchecked Sendable {
        private var body: (@Sendable () -> Void)?
        private let ended: @Sendable () -> Void

        init(_ body: @escaping @Sendable () -> Void, ended: @escaping @Sendable () -> Void) {
            self.body = body
            self.ended = ended
        }

        func run() {
            body?()
            body = nil
            ended()
        }
    }

    /// Runs `body` on a new thread (if none can be made, on the global queue: slower to start
    /// under load, but the job still runs), then `ended`.
    private func launch(_ body: @escaping @Sendable () -> Void, ended: @escaping @Sendable () -> Void = {}) {
        all.enter()
        state.withLock {
            $0.started += 1
            $0.running += 1
            $0.peak = max($0.peak, $0.running)
        }
        let job = Job(body) { [self] in
            state.withLock { $0.running -= 1 }
            ended()
            all.leave()
        }
        let context = Unmanaged.passRetained(job).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        #if canImport(Glibc)
        var thread = pthread_t()
        #else
        var thread: pthread_t?
        #endif
        let status = pthread_create(&thread, &attributes, { context in
            Unmanaged<Job>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        if status != 0 {
            let job = Unmanaged<Job>.fromOpaque(context).takeRetainedValue()
            DispatchQueue.global(qos: .userInitiated).async { job.run() }
        }
    }
}

/// What a job hands back to the thread that waits for it: written by the job, read after
/// ``Workers/sideBySide(_:beside:)`` returns (the wait orders the two).
private final class JobOutput<Value>: @unchecked Sendable {
    var value: Value?
    init() {}
}

/// Values handed to a job that the type system cannot see are safe to share: a libjpeg stream
/// opened by one job and read by the next, one job at a time (``Workers/sideBySide(_:and:)``
/// orders them); resizers written by one job only; a source only read, by position.
struct HandedOver<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
