#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PhotoPipeline

/// The outcome of preparing one file, for the progress lines, the summary and `--json`.
package struct PrepareResult: Encodable, Sendable {
    package let index: Int
    package let input: String
    package let output: String?
    package let mimeType: String?
    package let width: Int?
    package let height: Int?
    package let bytes: Int?
    package let inputBytes: Int?
    package let quality: Int?
    /// With `--quality auto`: the butteraugli distance estimated for the quality chosen.
    package var estimatedDistance: Double? = nil
    package let error: ErrorRecord?
    package let extensionMismatch: String?
    /// "ICC profile dropped: …" when the source's profile was not carried over.
    package let iccProfileDropped: String?
    /// Not encoded: the exit status this file's failure maps to.
    package let status: ExitStatus?
    /// The output was finished by an earlier run of the same command (``PrepareLedger``) and
    /// left as it is; encoded only when so.
    package var skipped = false

    private enum CodingKeys: String, CodingKey {
        case input, output, mimeType, width, height, bytes, inputBytes, quality, estimatedDistance, error, extensionMismatch, iccProfileDropped, skipped
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(input, forKey: .input)
        try container.encodeIfPresent(output, forKey: .output)
        try container.encodeIfPresent(mimeType, forKey: .mimeType)
        try container.encodeIfPresent(width, forKey: .width)
        try container.encodeIfPresent(height, forKey: .height)
        try container.encodeIfPresent(bytes, forKey: .bytes)
        try container.encodeIfPresent(inputBytes, forKey: .inputBytes)
        try container.encodeIfPresent(quality, forKey: .quality)
        try container.encodeIfPresent(estimatedDistance, forKey: .estimatedDistance)
        try container.encodeIfPresent(error, forKey: .error)
        try container.encodeIfPresent(extensionMismatch, forKey: .extensionMismatch)
        try container.encodeIfPresent(iccProfileDropped, forKey: .iccProfileDropped)
        if skipped { try container.encode(true, forKey: .skipped) }
    }

    /// Reads, prepares and writes one photo; never throws, the failure is in the result.
    /// - Parameter inputs: every input of the run, none of which may be overwritten.
    /// - Parameter ledger: the `--out-dir` folder's record of finished outputs, with the recipe
    ///   of this task: an output finished from the same recipe is skipped (unless `force`), and
    ///   a new one is recorded.
    package static func run(_ task: PrepareTask, options: PrepareOptions, inputs: [String] = [], force: Bool = false,
                    verbose: Bool = false, ledger: (PrepareLedger, recipe: String)? = nil) -> PrepareResult {
        let toStandardOutput = task.output == StandardStreams.name
        if let ledger, !force, ledger.0.isFinished(task.output, recipe: ledger.recipe) {
            var result = PrepareResult(index: task.index, input: task.input, output: task.output, mimeType: nil, width: nil, height: nil,
                                       bytes: nil, inputBytes: nil, quality: nil, error: nil, extensionMismatch: nil,
                                       iccProfileDropped: nil, status: nil)
            result.skipped = true
            return result
        }
        do throws(OutputCheck.Refusal) {
            if !toStandardOutput { try OutputCheck.check(task.output, inputs: [task.input] + inputs, force: force) }
        } catch {
            return failed(task, code: error.code, message: error.description, status: .cannotCreate)
        }
        do {
            // A file is read in place (a JPEG streamed, never whole in memory); standard input is read whole.
            let photo = task.input == StandardStreams.name
                ? try PhotoPipeline.prepare(StandardStreams.read(task.input, limit: options.limits.maxInputBytes), options: options)
                : try PhotoPipeline.prepare(contentsOf: task.input, options: options)
            if verbose { Terminal.error("\(task.input): \(photo.verboseSummary)") }
            if toStandardOutput {
                try FileIO.writeStandardOutput(photo.data)
            } else {
                if let folder = task.folder, let failure = Folder.create(folder) {
                    return failed(task, code: "cannot-write", message: "cannot create the output folder \(folder): \(failure). "
                                  + "Check the path and your permissions.", status: .cannotCreate)
                }
                ledger?.0.record(task.output, recipe: ledger!.recipe, bytes: photo.data.count)
                try FileIO.writeAtomically(photo.data, to: task.output)
            }
            return PrepareResult(index: task.index, input: task.input, output: task.output, mimeType: photo.mimeType,
                                 width: photo.size.width, height: photo.size.height, bytes: photo.byteCount,
                                 inputBytes: photo.source.byteCount, quality: photo.format.hasQuality && !options.encoding.lossless ? photo.quality : nil,
                                 estimatedDistance: photo.estimatedDistance.map { ($0 * 1000).rounded() / 1000 },
                                 error: nil,
                                 extensionMismatch: ExtensionCheck.mismatch(path: task.input, actual: photo.source.type),
                                 iccProfileDropped: photo.source.droppedICCProfile?.message, status: nil)
        } catch {
            return failed(task, code: error.code, message: error.description, status: ExitStatus.of(error))
        }
    }

    private static func failed(_ task: PrepareTask, code: String, message: String, status: ExitStatus) -> PrepareResult {
        PrepareResult(index: task.index, input: task.input, output: nil, mimeType: nil, width: nil,
                      height: nil, bytes: nil, inputBytes: nil, quality: nil,
                      error: ErrorRecord(code: code, message: message), extensionMismatch: nil, iccProfileDropped: nil,
                      status: status)
    }

    /// "ok   in.jpg → out.jpg (1536×2048, 312 KiB)" or the error line.
    package var line: String {
        if let error { return "failed \(input): \(error.message)" }
        if skipped { return "skip   \(input) → \(output ?? "") (prepared already by an earlier run, from the same photo and options)" }
        var text = "ok     \(input) → \(output ?? "") (\(width ?? 0)×\(height ?? 0), \(ByteFormat.string(bytes ?? 0))"
        if let quality { text += ", q\(quality)" }
        if let estimatedDistance { text += " for butteraugli ≈ " + DecimalText.fixed(estimatedDistance, decimals: 2) }
        text += ")"
        if let extensionMismatch { text += "\n       note: \(extensionMismatch)" }
        if let iccProfileDropped { text += "\n       note: \(iccProfileDropped)" }
        return text
    }

    package static func summary(_ results: [PrepareResult], elapsed: Duration) -> String {
        let failed = results.filter { $0.error != nil }.count
        let skipped = results.filter(\.skipped).count
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let inBytes = results.compactMap(\.inputBytes).reduce(0, +)
        let outBytes = results.compactMap(\.bytes).reduce(0, +)
        var text = "Prepared \(results.count - failed - skipped) of \(results.count) photo\(results.count == 1 ? "" : "s")"
        var notes: [String] = []
        if skipped > 0 { notes.append("\(skipped) done already by an earlier run, skipped") }
        if failed > 0 { notes.append("\(failed) failed") }
        if !notes.isEmpty { text += " (\(notes.joined(separator: ", ")))" }
        text += " in " + DecimalText.fixed(seconds, decimals: 2) + " s"
        if outBytes > 0 { text += "; \(ByteFormat.string(inBytes)) in, \(ByteFormat.string(outBytes)) out" }
        return text + "."
    }
}

extension PreparedPhoto {
    /// "decoded 2520×1890 from 4032×3024; probe 0.1 ms, decode 80.2 ms, resize+orient 30.1 ms, encode 20.3 ms"
    package var verboseSummary: String {
        func ms(_ d: Duration) -> String {
            DecimalText.fixed(Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15, decimals: 1) + " ms"
        }
        return "decoded \(decodedSize) from \(source.storedSize) (\(source.type.displayName), \(source.encodingSummary)); "
            + "probe \(ms(timings.probe)), decode \(ms(timings.decode)), resize+orient \(ms(timings.transform)), "
            + "encode \(ms(timings.encode))"
    }
}
