import ArgumentParser
import Foundation
import PhotoPipeline

/// `petspot photo inspect FILE…`
struct InspectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show what a photo really is: type, size, orientation, GPS, capture date, colour profile.",
        discussion: "Only the header is read; no pixels are decoded.\n\n" + ExitStatus.helpText)

    @Argument(help: "Photo files to inspect; - reads standard input.", completion: .file())
    var files: [String]

    @Flag(help: "Print JSON for scripts.")
    var json = false

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("Name at least one file to inspect.") }
        try StandardStreams.checkInputs(files)
    }

    func run() async throws {
        var records: [InspectRecord] = []
        var failures: [ExitStatus] = []
        for file in files {
            do {
                let bytes = try StandardStreams.read(file, limit: .max)
                let info = try PhotoPipeline.inspect(bytes)
                records.append(InspectRecord(file: file, info: info))
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
}
