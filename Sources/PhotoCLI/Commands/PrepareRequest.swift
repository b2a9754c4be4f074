import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PhotoPipeline

/// What a `photo prepare` command line asks for, as plain values (``PrepareCommand``'s, once
/// ArgumentParser parsed them), and the running of it: the checks, the plan of inputs and
/// outputs, and the photos prepared in parallel.
package struct PrepareRequest: Sendable {
    package var files: [String] = []
    package var output: String?
    package var force = false
    package var outDir: String?
    /// `--recursive`: a folder's subfolders too.
    package var recursive = false
    package var format: OutputFormat?
    package var pipeline = PipelineSettings()
    /// `--jobs`.
    package var jobs = JobsOption.cores
    package var json = false
    package var verbose = false
    package var quiet = false

    /// Every check ArgumentParser runs on the parsed command, in its order: the option groups',
    /// then the command's own.
    package func validateAll() throws {
        try pipeline.validate()
        try JobsOption.check(jobs)
        try ReportingOptions.check(json: json, verbose: verbose, quiet: quiet)
        try validate()
    }

    /// The command's own checks (ArgumentParser runs its option groups' first: ``validateAll()``).
    package func validate() throws {
        guard !files.isEmpty else { throw ValidationError("Name at least one photo to prepare.") }
        if output != nil, let folder = files.first(where: PhotoFolder.isFolder) {
            throw ValidationError("\(folder) is a folder; -o/--output names one photo's output, so use --out-dir DIR for a folder.")
        }
        guard (output == nil) != (outDir == nil) else {
            throw ValidationError("Give exactly one of -o/--output FILE or --out-dir DIR.")
        }
        if output != nil && files.count > 1 {
            throw ValidationError("-o/--output takes one input; use --out-dir DIR for \(files.count) files.")
        }
        try StandardStreams.checkInputs(files, outDir: outDir)
        if output == StandardStreams.name, json {
            throw ValidationError("-o - writes the photo to standard output, so --json has nowhere to go; name an output file.")
        }
        if output == StandardStreams.name, Terminal.stdoutIsTerminal {
            throw ValidationError("-o - writes the photo's bytes to standard output, which is a terminal; redirect it (`-o - > out.jpg`, `| …`) or name an output file.")
        }
        if let output, output != StandardStreams.name, format == nil, !PathText.pathExtension(output).isEmpty,
           OutputFormat(fileExtension: PathText.pathExtension(output)) == nil {
            throw ValidationError("Cannot tell the format from '\(output)'; name it .jpg, .webp or .png, or pass --format.")
        }
        let (tasks, _) = plan()
        for task in tasks { try pipeline.checkFlags(for: task.format, output: task.output) }
        let targets = tasks.map(\.output)
        if let clash = Dictionary(grouping: targets, by: { $0 }).first(where: { $0.value.count > 1 }) {
            throw ValidationError("Two inputs would both be written to \(clash.key); rename one or prepare them separately.")
        }
    }

    /// Each input (a folder's photos in its place) with its output path and format, and notes on
    /// what the folders held that is not a photo.
    package func plan() -> (tasks: [PrepareTask], notes: [String]) {
        let (inputs, notes) = PhotoFolder.expand(files, recursive: recursive, outputFolder: outDir)
        let tasks = inputs.enumerated().map { index, input in
            if let output {
                let named = output == StandardStreams.name ? nil : OutputFormat(fileExtension: PathText.pathExtension(output))
                let format = format ?? named ?? .jpeg
                return PrepareTask(index: index, input: input.path, output: output, format: format)
            }
            let format = format ?? .jpeg
            let outDir = outDir ?? "."
            // A folder's photo keeps its place under the folder: sub/dog.heic → OUT/sub/dog.jpg.
            let inside = input.relativePath ?? PathText.lastComponent(input.path)
            let slash = inside.lastIndex(of: "/")
            let folder = slash.map { PathText.joining(outDir, String(inside[..<$0])) } ?? outDir
            let path = PathText.joining(folder, "\(PathText.stem(inside)).\(format.mediaType.preferredExtension)")
            return PrepareTask(index: index, input: input.path, output: path, format: format, folder: folder)
        }
        return (tasks, notes)
    }

    package func run() async throws {
        let (tasks, notes) = plan()
        if !quiet { for note in notes { Terminal.error("note: " + note) } }
        guard !tasks.isEmpty else {
            Terminal.error("error: no photo to prepare in \(files.joined(separator: ", ")); name photo files or folders holding some.")
            throw ExitStatus.noInput.exitCode
        }
        if let output, let format, let named = OutputFormat(fileExtension: PathText.pathExtension(output)),
           named != format {
            Terminal.error("note: writing \(format.rawValue.uppercased()) to \(output) as --format asks, although its name says \(named.rawValue.uppercased())")
        }
        let cores = JobsOption.cores
        let parallel = min(jobs, tasks.count)
        let threadsPerPhoto = max(1, cores / parallel)
        let toStandardOutput = output == StandardStreams.name
        let json = json, verbose = verbose, force = force, inputs = files
        let lines: ProgressReporter.Lines = quiet || json ? .none : toStandardOutput ? .stderr : .stdout
        let progress = ProgressReporter(total: tasks.count, enabled: !quiet && !json && Terminal.stderrIsTerminal,
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
            if !quiet { Terminal.error(PrepareResult.summary(results, elapsed: elapsed)) }
        } else if !quiet {
            Terminal.out(PrepareResult.summary(results, elapsed: elapsed))
        }
        let status = ExitStatus.mostSevere(results.compactMap(\.status))
        if status != .ok { throw status.exitCode }
    }
}
