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

            A folder as an input stands for the photos in it (--recursive: and in its subfolders), \
            found by their first bytes, whatever their names; anything else in it is skipped with \
            a note. Hidden files (.name) are left alone.
            """)

    @Argument(help: ArgumentHelp("Photo files (JPEG, PNG, WebP, HEIC or AVIF, whatever their names say), or folders of them "
                  + "(with --out-dir); - reads standard input."),
              completion: .file())
    package var files: [String]

    @Option(name: [.short, .customLong("output")], help: "Output file (one input only); - writes to standard output.")
    package var output: String?

    @Flag(help: "Replace output files that exist already.")
    package var force = false

    @Option(help: ArgumentHelp("Output folder, made when the first photo is written; each output is named after its input "
                  + "with the format's extension (a folder's photos keep their subfolders)."))
    package var outDir: String?

    @Flag(name: [.short, .long], help: "Also prepare the photos in the subfolders of a folder named as an input.")
    package var recursive = false

    @Option(help: "Output format: jpeg, webp or png (default: the -o file's extension, else jpeg).")
    package var format: OutputFormat?

    @OptionGroup package var pipeline: PipelineOptions

    @OptionGroup package var jobs: JobsOption

    @OptionGroup package var report: ReportingOptions

    /// The command's own checks (ArgumentParser runs its option groups' first).
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
        let (tasks, _) = plan()
        for task in tasks { try pipeline.checkFlags(for: task.format, output: task.output) }
        let targets = tasks.map(\.output)
        if let clash = Dictionary(grouping: targets, by: { $0 }).first(where: { $0.value.count > 1 }) {
            throw ValidationError("Two inputs would both be written to \(clash.key); rename one or prepare them separately.")
        }
    }
}

/// One input and where its output goes.
package struct PrepareTask: Sendable {
    package let index: Int
    package let input: String
    package let output: String
    package let format: OutputFormat
    /// The folder the output goes into when `--out-dir` names it: made (with its parents) only
    /// when the photo is ready to be written, so a run that writes nothing creates nothing.
    package var folder: String? = nil
}

extension PrepareCommand: ExitCodesListed {
    package static var exitCodes: [ExitStatus] { ExitStatus.photoCodes }
}
