import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PhotoPipeline

/// `petspot photo prepare FILE… (-o OUT | --out-dir DIR)`
package struct PrepareCommand: AsyncParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "prepare",
        abstract: "Make upload-ready photos: upright, resized, metadata stripped (the colour profile is kept).",
        discussion: """
            Several files run in parallel; one bad file does not stop the others. Each output is \
            written to a temporary file and renamed into place, so a failed or interrupted run \
            leaves no partial output. An existing output is kept unless --force is given (the \
            input itself is never overwritten); a symbolic link is followed, and a device or FIFO \
            is written to, never replaced. `-` as the input reads standard input; `-o -` writes \
            the photo to standard output (the report lines then go to standard error).

            """ + ExitStatus.photoHelp)

    @Argument(help: "Photo files (JPEG, PNG, WebP, HEIC or AVIF, whatever their names say); - reads standard input.",
              completion: .file())
    package var files: [String]

    @Option(name: [.short, .customLong("output")], help: "Output file (one input only); - writes to standard output.")
    package var output: String?

    @Flag(help: "Replace output files that exist already.")
    package var force = false

    @Option(help: "Output folder; each output is named after its input with the format's extension.")
    package var outDir: String?

    @Option(help: "Output format: jpeg, webp or png (default: the -o file's extension, else jpeg).")
    package var format: OutputFormat?

    @OptionGroup package var pipeline: PipelineOptions

    @OptionGroup package var jobs: JobsOption

    @OptionGroup package var report: ReportingOptions

    package func validate() throws {
        guard !files.isEmpty else { throw ValidationError("Name at least one photo to prepare.") }
        guard (output == nil) != (outDir == nil) else {
            throw ValidationError("Give exactly one of -o/--output FILE or --out-dir DIR.")
        }
        if output != nil && files.count > 1 {
            throw ValidationError("-o/--output takes one input; use --out-dir DIR for \(files.count) files.")
        }
        try StandardStreams.checkInputs(files, outDir: outDir)
        if output == StandardStreams.name, report.json {
            throw ValidationError("-o - writes the photo to standard output, so --json has nowhere to go; name an output file.")
        }
        if output == StandardStreams.name, Terminal.stdoutIsTerminal {
            throw ValidationError("-o - writes the photo's bytes to standard output, which is a terminal; redirect it (`-o - > out.jpg`, `| …`) or name an output file.")
        }
        if let output, output != StandardStreams.name, format == nil, !PathText.pathExtension(output).isEmpty,
           OutputFormat(fileExtension: PathText.pathExtension(output)) == nil {
            throw ValidationError("Cannot tell the format from '\(output)'; name it .jpg, .webp or .png, or pass --format.")
        }
        let tasks = plan()
        for task in tasks { try pipeline.checkFlags(for: task.format, output: task.output) }
        let targets = tasks.map(\.output)
        if let clash = Dictionary(grouping: targets, by: { $0 }).first(where: { $0.value.count > 1 }) {
            throw ValidationError("Two inputs would both be written to \(clash.key); rename one or prepare them separately.")
        }
    }

    /// Each input with its output path and format.
    package func plan() -> [PrepareTask] {
        files.enumerated().map { index, file in
            if let output {
                let named = output == StandardStreams.name ? nil : OutputFormat(fileExtension: PathText.pathExtension(output))
                let format = format ?? named ?? .jpeg
                return PrepareTask(index: index, input: file, output: output, format: format)
            }
            let format = format ?? .jpeg
            let stem = PathText.stem(file)
            let path = PathText.joining(outDir ?? ".", "\(stem).\(format.mediaType.preferredExtension)")
            return PrepareTask(index: index, input: file, output: path, format: format)
        }
    }

    package func run() async throws {
        if let outDir {
            if let failure = Folder.create(outDir) {
                Terminal.error("error: cannot create the output folder \(outDir): \(failure). Check the path and your permissions.")
                throw ExitStatus.cannotCreate.exitCode
            }
        }
        let tasks = plan()
        if let output, let format, let named = OutputFormat(fileExtension: PathText.pathExtension(output)),
           named != format {
            Terminal.error("note: writing \(format.rawValue.uppercased()) to \(output) as --format asks, although its name says \(named.rawValue.uppercased())")
        }
        let cores = JobsOption.cores
        let parallel = min(jobs.count, tasks.count)
        let threadsPerPhoto = max(1, cores / parallel)
        let toStandardOutput = output == StandardStreams.name
        let json = report.json, verbose = report.verbose, force = force, inputs = files
        let lines: ProgressReporter.Lines = report.quiet || json ? .none : toStandardOutput ? .stderr : .stdout
        let progress = ProgressReporter(total: tasks.count, enabled: !report.quiet && !json && Terminal.stderrIsTerminal,
                                        lines: lines)
        let interruption = InterruptionGuard()
        defer { interruption.release() }

        let started = ContinuousClock.now
        var results: [PrepareResult] = []
        await withTaskGroup(of: PrepareResult.self) { group in
            var next = 0
            func enqueue() {
                let task = tasks[next]
                let options = pipeline.prepareOptions(format: task.format, threads: threadsPerPhoto)
                group.addTask { PrepareResult.run(task, options: options, inputs: inputs, force: force, verbose: verbose) }
                next += 1
            }
            while next < parallel { enqueue() }
            for await result in group {
                results.append(result)
                progress.completed(result)
                if next < tasks.count { enqueue() }
            }
        }
        progress.finish()
        results.sort { $0.index < $1.index }
        let elapsed = ContinuousClock.now - started
        if json {
            Terminal.out(JSONOutput.string(results))
        } else if toStandardOutput {
            if !report.quiet { Terminal.error(PrepareResult.summary(results, elapsed: elapsed)) }
        } else if !report.quiet {
            Terminal.out(PrepareResult.summary(results, elapsed: elapsed))
        }
        let status = ExitStatus.mostSevere(results.compactMap(\.status))
        if status != .ok { throw status.exitCode }
    }
}

/// One input and where its output goes.
package struct PrepareTask: Sendable {
    package let index: Int
    package let input: String
    package let output: String
    package let format: OutputFormat
}
