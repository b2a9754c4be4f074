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

    /// The command line as plain values, which check and run it (``PrepareRequest``).
    package var request: PrepareRequest {
        PrepareRequest(files: files, output: output, force: force, outDir: outDir, format: format, pipeline: pipeline.settings,
                       jobs: jobs.count, json: report.json, verbose: report.verbose, quiet: report.quiet)
    }

    package func validate() throws {
        try request.validate()
    }

    package func run() async throws {
        try await request.run()
    }
}

/// One input and where its output goes.
package struct PrepareTask: Sendable {
    package let index: Int
    package let input: String
    package let output: String
    package let format: OutputFormat
}
