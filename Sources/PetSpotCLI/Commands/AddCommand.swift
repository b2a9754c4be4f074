import ArgumentParser
import Foundation
import PhotoCache
import PhotoPipeline
import PhotoCLI

/// `petspot photo add FILE… [--flow missing|found]`
struct AddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Prepare photos into the cache, ready to be attached to a report.",
        discussion: """
            The same photo with the same options is a cache hit: nothing is decoded or encoded. \
            With --flow, the photo becomes the current attachment of that report and is never \
            evicted until another photo replaces it. The pipeline options are those of `photo prepare`.
            """)

    @Argument(help: "Photo files (JPEG, PNG, WebP, HEIC or AVIF, whatever their names say).", completion: .file())
    var files: [String]

    @Option(help: "Pin the photo as the current attachment of the missing or found report.")
    var flow: CacheFlow?

    @Option(help: "Format of the cached photo: jpeg, webp or png.")
    var format: OutputFormat = .jpeg

    @OptionGroup var pipeline: PipelineOptions

    @OptionGroup var cache: CacheOptions

    @OptionGroup var jobs: JobsOption

    @OptionGroup var report: ReportingOptions

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("Name at least one photo to add.") }
        if flow != nil && files.count > 1 {
            throw ValidationError("--flow pins one photo, the report's current attachment; give one file.")
        }
        try pipeline.checkFlags(for: format)
    }

    func run() async throws {
        let clock = ContinuousClock()
        let opening = clock.now
        var photoCache: DiskPhotoCache? = try cache.open()
        var timing = AddTiming(open: clock.now - opening)
        let parallel = min(jobs.count, files.count)
        let options = pipeline.prepareOptions(format: format,
                                              threads: max(1, JobsOption.cores / parallel))
        var outcomes: [AddOutcome] = []
        await withTaskGroup(of: AddOutcome.self) { group in
            var next = 0
            var stopped = false
            func enqueue() {
                let (index, file, flow, store) = (next, files[next], flow, photoCache!)
                group.addTask { AddOutcome.run(index: index, file: file, flow: flow, options: options, cache: store) }
                next += 1
            }
            while next < parallel { enqueue() }
            for await outcome in group {
                outcomes.append(outcome)
                if let error = outcome.error {
                    Terminal.fileError(outcome.record.file, "\(error)")
                    // A photo the pipeline refuses does not stop the others; a cache that cannot store does.
                    if case .photo = error {} else { stopped = true }
                }
                if !stopped && next < files.count { enqueue() }
            }
        }
        outcomes.sort { $0.index < $1.index }
        for outcome in outcomes where outcome.error == nil {
            timing.added(outcome.duration, pipeline: outcome.pipelineDuration)
        }
        let closing = clock.now
        photoCache = nil
        timing.close = clock.now - closing
        if report.verbose { Terminal.error(timing.summary) }
        let records = outcomes.map(\.record)
        if report.json {
            Terminal.out(JSONOutput.string(records))
        } else if !report.quiet {
            let text = records.filter { $0.error == nil }.map(\.humanText).joined(separator: "\n")
            if !text.isEmpty { Terminal.out(text) }
        }
        let status = ExitStatus.mostSevere(outcomes.compactMap { $0.error.map(ExitStatus.of) })
        if status != .ok { throw status.exitCode }
    }
}

/// One file added to the cache (or refused), with how long it took.
struct AddOutcome: Sendable {
    let index: Int
    let record: AttachmentRecord
    let error: CacheError?
    let duration: Duration
    let pipelineDuration: Duration?

    static func run(index: Int, file: String, flow: CacheFlow?, options: PrepareOptions, cache: DiskPhotoCache) -> AddOutcome {
        let started = ContinuousClock.now
        do {
            let attachment = try cache.add(fileAt: file, options: options, flow: flow)
            return AddOutcome(index: index, record: AttachmentRecord(file: file, attachment: attachment, flow: flow), error: nil,
                              duration: ContinuousClock.now - started, pipelineDuration: attachment.pipelineDuration)
        } catch {
            return AddOutcome(index: index, record: AttachmentRecord(file: file, error: error), error: error,
                              duration: ContinuousClock.now - started, pipelineDuration: nil)
        }
    }
}

/// Where the time of a `photo add` went, for `--verbose`.
struct AddTiming {
    var open: Duration
    var add: Duration = .zero
    var pipeline: Duration = .zero
    var close: Duration = .zero
    var hits = 0
    var misses = 0

    mutating func added(_ duration: Duration, pipeline: Duration?) {
        add += duration
        self.pipeline += pipeline ?? .zero
        if pipeline == nil { hits += 1 } else { misses += 1 }
    }

    /// "timing: pipeline 2.31 ms; cache 4.02 ms (open 1.90, add 1.12, close 1.00); 1 miss, 0 hits"
    var summary: String {
        func ms(_ duration: Duration) -> String {
            String(format: "%.2f", Double(duration.components.seconds) * 1_000 + Double(duration.components.attoseconds) / 1e15)
        }
        let own = add - pipeline
        return "timing: pipeline \(ms(pipeline)) ms; cache \(ms(open + own + close)) ms (open \(ms(open)), "
            + "add \(ms(own)), close \(ms(close))); \(misses) miss\(misses == 1 ? "" : "es"), \(hits) hit\(hits == 1 ? "" : "s")"
    }
}

extension AddCommand: ExitCodesListed {
    static var exitCodes: [ExitStatus] { ExitStatus.cacheCodes }
}
