import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PhotoPipeline

/// The running of `photo prepare`: the plan of inputs and outputs, and the photos prepared in
/// parallel.
extension PrepareCommand {
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
        let (json, verbose, quiet) = (report.json, report.verbose, report.quiet)
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
        let parallel = min(jobs.count, tasks.count)
        let threadsPerPhoto = max(1, cores / parallel)
        let toStandardOutput = output == StandardStreams.name
        let force = force, inputs = files
        let lines: ProgressReporter.Lines = quiet || json ? .none : toStandardOutput ? .stderr : .stdout
        let progress = ProgressReporter(total: tasks.count, enabled: !quiet && !json && Terminal.stderrIsTerminal,
                                        lines: lines)
        let interruption = InterruptionGuard(message: outDir == nil ? "interrupted: no partial output was left behind"
            : "interrupted: no partial output was left behind; run the same command again to carry on (finished photos are skipped)")
        defer { interruption.release() }
        // With --out-dir, what earlier runs of the same command finished there is skipped.
        let ledger = outDir.map(PrepareLedger.init(outDir:))
        let settings = "\(pipeline)"

        let started = ContinuousClock.now
        var results: [PrepareResult] = []
        await withTaskGroup(of: PrepareResult.self) { group in
            var next = 0
            func enqueue() {
                let task = tasks[next]
                let options = pipeline.prepareOptions(format: task.format, threads: threadsPerPhoto)
                let recipe = ledger.flatMap { ledger in
                    PrepareLedger.recipe(input: task.input, settings: "\(settings)|\(task.format)").map { (ledger, recipe: $0) }
                }
                group.addTask { PrepareResult.run(task, options: options, inputs: inputs, force: force, verbose: verbose, ledger: recipe) }
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
