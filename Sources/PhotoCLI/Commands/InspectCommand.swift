import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PhotoPipeline

/// `petspot photo inspect FILE…`
package struct InspectCommand: AsyncParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show what a photo really is: type, size, orientation, GPS, capture date, colour profile.",
        discussion: "Only the header is read; no pixels are decoded.")

    @Argument(help: "Photo files to inspect; - reads standard input.", completion: .file())
    package var files: [String]

    @Flag(help: "Print JSON for scripts.")
    package var json = false

    package func validate() throws {
        guard !files.isEmpty else { throw ValidationError("Name at least one file to inspect.") }
        try StandardStreams.checkInputs(files)
    }

    package func run() async throws {
        var records: [InspectRecord] = []
        var failures: [ExitStatus] = []
        for file in files {
            do {
                let bytes = try StandardStreams.read(file, limit: .max)
                let info = try PhotoPipeline.inspect(bytes)
                records.append(InspectRecord(file: file, info: info))
                // The header alone reads fine; say now what `prepare` will find.
                if info.type == .jpeg, !Self.hasEndMarkerAfterLastScan(bytes) {
                    Terminal.error("warning: \(file) ends before its picture does (no JPEG end marker after the last scan): "
                        + "`petspot photo prepare` will refuse it as cut short. Copy or download the original again.")
                    failures.append(.dataError)
                }
            } catch {
                records.append(InspectRecord(file: file, error: error))
                failures.append(ExitStatus.of(error))
                Terminal.fileError(file, "\(error)")
            }
        }
        let worst = ExitStatus.mostSevere(failures)
        if json {
            Terminal.out(JSONOutput.string(records))
        } else {
            let found = records.filter { $0.error == nil }
            if !found.isEmpty { Terminal.out(found.map(\.humanText).joined(separator: "\n")) }
        }
        if worst != .ok { throw worst.exitCode }
    }

    /// Whether an end-of-image marker (FF D9) follows the last start-of-scan (FF DA): inside
    /// entropy-coded data a 0xFF is always stuffed, so only a real marker matches; an EXIF
    /// thumbnail's own end marker comes before the first scan and does not count.
    package static func hasEndMarkerAfterLastScan(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4 else { return false }
        var lastScan: Int?
        for index in stride(from: bytes.count - 2, through: 0, by: -1) where bytes[index] == 0xFF && bytes[index + 1] == 0xDA {
            lastScan = index
            break
        }
        guard let lastScan else { return false }
        var index = lastScan + 2
        while index + 1 < bytes.count {
            if bytes[index] == 0xFF && bytes[index + 1] == 0xD9 { return true }
            index += 1
        }
        return false
    }
}

extension InspectCommand: ExitCodesListed {
    package static var exitCodes: [ExitStatus] { ExitStatus.inspectCodes }
}
