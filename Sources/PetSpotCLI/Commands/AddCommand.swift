import ArgumentParser
import Foundation
import PhotoCache
import PhotoPipeline

/// `petspot photo add FILE… [--flow missing|found]`
struct AddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Prepare photos into the cache, ready to be attached to a report.",
        discussion: """
            The same photo with the same options is a cache hit: nothing is decoded or encoded. \
            With --flow, the photo becomes the current attachment of that report and is never \
            evicted until another photo replaces it. The pipeline options are those of `photo prepare`.

            """ + ExitStatus.helpText)

    @Argument(help: "Photo files (JPEG, PNG or WebP, whatever their names say).", completion: .file())
    var files: [String]

    @Option(help: "Pin the photo as the current attachment of the missing or found report.")
    var flow: CacheFlow?

    @OptionGroup var pipeline: PipelineOptions

    @OptionGroup var cache: CacheOptions

    @Flag(help: "Print JSON for scripts.")
    var json = false

    @Flag(name: .shortAndLong, help: "Also print where the time went (the pipeline, the cache's own work) on stderr.")
    var verbose = false

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("Name at least one photo to add.") }
        if flow != nil && files.count > 1 {
            throw ValidationError("--flow pins one photo, the report's current attachment; give one file.")
        }
    }

    func run() async throws {
        let clock = ContinuousClock()
        let opening = clock.now
        var photoCache: DiskPhotoCache? = try cache.open()
        var timing = AddTiming(open: clock.now - opening)
        let options = pipeline.prepareOptions(format: pipeline.format ?? .jpeg,
                                              threads: ProcessInfo.processInfo.activeProcessorCount)
        var records: [AttachmentRecord] = []
        var failure: ExitStatus?
        for file in files {
            do {
                let adding = clock.now
                let attachment = try photoCache!.add(fileAt: file, options: options, flow: flow)
                timing.added(clock.now - adding, pipeline: attachment.pipelineDuration)
                records.append(AttachmentRecord(file: file, attachment: attachment, flow: flow))
            } catch {
                records.append(AttachmentRecord(file: file, error: error))
                Terminal.error("error: \(file): \(error)")
                failure = failure ?? ExitStatus.of(error)
                // A photo the pipeline refuses does not stop the others; a cache that cannot store does.
                if case .photo = error { continue }
                break
            }
        }
        let closing = clock.now
        photoCache = nil
        timing.close = clock.now - closing
        if verbose { Terminal.error(timing.summary) }
        if json {
            Terminal.out(JSONOutput.string(records))
        } else {
            let text = records.filter { $0.error == nil }.map(\.humanText).joined(separator: "\n")
            if !text.isEmpty { Terminal.out(text) }
        }
        if let failure { throw failure.exitCode }
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
