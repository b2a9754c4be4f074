import ArgumentParser
import PetSpot
import PetSpotClient
import PhotoCLI

/// What `report submit` and `submissions retry` share: the progress line, the `--verbose`
/// events, the client's shutdown, and a failure reported in one place.
enum SubmissionRun {
    /// - Parameter pending: the journal's record after a failure, to say what exists on the
    ///   server (an announcement already public without its photo) and the way out.
    /// - Parameter keepOpen: leave the client open after a success (another step follows).
    static func perform(client: PetSpotAPIClient, verbose: Bool, json: Bool,
                        pending: @escaping @Sendable () -> SubmissionRecord? = { nil },
                        keepOpen: Bool = false,
                        _ body: (_ events: @escaping @Sendable (Submitter.Event) -> Void) async throws(SubmissionError) -> SubmissionRecord)
        async throws -> SubmissionRecord {
        let progress = UploadProgressLine(enabled: !json && Terminal.stderrIsTerminal)
        let attempts = client.configuration.retry.maxAttempts
        let retryLines = !json && !verbose && Terminal.stderrIsTerminal
        let countdown = RetryCountdown(budget: client.configuration.retry.maxTotalTime)
        defer {
            countdown.stop()
            progress.end()
        }
        // Ctrl-C (or SIGTERM) says where the report is, read from the journal at that moment.
        let interruption = InterruptionGuard(message: {
            "interrupted. " + (pending().map { "Where the report stands: \($0.state.sentence)." } ?? "Nothing was sent.")
                + " Run `petspot report submit` again to carry on: it never posts the report twice."
        }, beforeExit: {
            countdown.stop()
            progress.end()
        })
        defer { interruption.release() }
        do {
            let record = try await body { event in
                progress.show(event)
                if verbose && !json { SubmissionEvents.log(event) }
                if case .retrying(_, let attempt, let wait, let cause) = event, retryLines {
                    progress.finish()
                    Terminal.error(RetryNotice.line(attempt: attempt, of: attempts, wait: wait, cause: cause))
                    countdown.start(attempt: attempt, wait: wait, cause: cause)
                } else if retryLines {
                    countdown.stop()
                }
                if case .movedServer = event, verbose, !json { progress.finish() }
                if case .photoPreparedAgain(let from, let to, let limit, let width, let height) = event, !json {
                    progress.finish()
                    Terminal.error("The server accepts photos up to \(SubmissionError.bytesText(limit)); the photo (\(SubmissionError.bytesText(from))) was prepared again to \(SubmissionError.bytesText(to)) and is being uploaded.")
                    if max(width, height) < 640 {
                        Terminal.error("note: to fit, the photo is now \(width) × \(height) pixels, under 640: small for telling a pet "
                            + "apart. A sharper, tighter photo of the pet fits better; `petspot pet photo ID FILE` replaces it later.")
                    }
                }
            }
            if !keepOpen { await client.shutdown() }
            return record
        } catch {
            await client.shutdown()
            progress.finish()
            let record = pending()
            // A report its server may have received can only be finished there: no "pass --server".
            let mayHoldIt = record.map { $0.state == .creating && $0.createMayHaveArrived != false } ?? false
            let exit = SubmissionFailure.report(error, verbose: verbose, json: json, server: client.configuration.server,
                                                otherServerHint: !mayHoldIt)
            if !json, mayHoldIt, error.isOffline, let record {
                Terminal.error("\(record.server) may have received this report before its answer was lost, so only it can say whether "
                    + "the announcement exists: run `petspot report submit` again once it answers. To give up instead, "
                    + "`petspot submissions abandon \(record.id)` (the draft is kept).")
            }
            if !json, let record, record.state == .uploadingPhoto, let id = record.announcementID {
                Terminal.error(Self.photoAdvice(error, id: id, flow: record.flow))
            }
            throw exit
        }
    }

    /// What to do about an announcement that exists without its photo, by what stopped the photo:
    /// the photo itself (refused, too large, not an image the server takes) calls for another
    /// photo; a connection or a server that failed calls for sending the same one again.
    static func photoAdvice(_ error: SubmissionError, id: AnnouncementID, flow: String) -> String {
        let photosFault: Bool = switch error {
        case .http(413, _, _, _), .http(415, _, _, _), .http(422, _, _, _), .photoUnavailable: true
        default: false
        }
        if photosFault {
            return "The announcement \(id) exists and is public without its photo. Attach another photo "
                + "(`petspot report \(flow) --photo FILE`) and run `petspot report submit` again, or keep it "
                + "without a photo: `petspot submissions abandon \(id)` (prints its management password)."
        }
        return "The announcement \(id) exists and is public; its photo did not get through (\(error.isRetryable ? "the connection or the server failed, not the photo" : "the server refused the upload")). "
            + "Run `petspot report submit` again to send the same photo: the announcement is not posted twice. "
            + "To keep it without a photo instead: `petspot submissions abandon \(id)` (prints its management password)."
    }

    /// A journal record by its id or its announcement's id, or exit 66 saying how to find one.
    static func record(_ id: String, in journal: SubmissionJournal, json: Bool) throws -> SubmissionRecord {
        guard let record = try SubmissionFailure.run(json: json, { () throws(SubmissionError) in try journal.record(matching: id) }) else {
            Terminal.error("error: no submission or announcement \(Terminal.escaped(id)) in the journal; `petspot submissions list` shows them.")
            throw ExitStatus.noInput.exitCode
        }
        return record
    }
}

/// On a terminal, one line per retry, so nobody waits in silence: "server not reachable,
/// retrying in 2 s (attempt 2 of 5)".
enum RetryNotice {
    /// "server not reachable", "connection lost", "the server failed (HTTP 503)".
    static func cause(_ cause: SubmissionError) -> String {
        switch cause {
        case .offline: "server not reachable"
        case .network: "connection lost"
        case .http(429, _, _, _): "the server asks to slow down"
        case .http(let status, _, _, _): "the server failed (HTTP \(status))"
        default: "failed"
        }
    }

    static func line(attempt: Int, of attempts: Int, wait: Duration, cause: SubmissionError) -> String {
        let what = Self.cause(cause)
        let seconds = Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18
        let delay = seconds < 1 ? "under a second" : "\(Int(seconds.rounded())) s"
        return "\(what), retrying in \(delay) (attempt \(attempt) of \(attempts))"
    }
}
