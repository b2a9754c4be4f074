import ArgumentParser
import PetSpotClient

/// What `report submit` and `submissions retry` share: the progress line, the `--verbose`
/// events, the client's shutdown, and a failure reported in one place.
enum SubmissionRun {
    static func perform(client: PetSpotAPIClient, verbose: Bool, json: Bool,
                        _ body: (_ events: @escaping @Sendable (Submitter.Event) -> Void) async throws(SubmissionError) -> SubmissionRecord)
        async throws -> SubmissionRecord {
        let progress = UploadProgressLine(enabled: !json && Terminal.stderrIsTerminal)
        defer { progress.finish() }
        do {
            let record = try await body { event in
                progress.show(event)
                if verbose && !json { SubmissionEvents.log(event) }
            }
            await client.shutdown()
            return record
        } catch {
            await client.shutdown()
            throw SubmissionFailure.report(error, verbose: verbose, json: json)
        }
    }

    /// A journal record by id, or exit 66 saying how to find one.
    static func record(_ id: String, in journal: SubmissionJournal, json: Bool) throws -> SubmissionRecord {
        guard let record = try SubmissionFailure.run(json: json, { () throws(SubmissionError) in try journal.record(id: id) }) else {
            Terminal.error("error: no submission \(Terminal.escaped(id)); `petspot submissions list` shows them.")
            throw ExitStatus.noInput.exitCode
        }
        return record
    }
}
