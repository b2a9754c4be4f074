import ArgumentParser
import Foundation
import PetSpot
import PetSpotClient
import PhotoCache
import PhotoCLI

/// `petspot report submit [--flow missing|found] [--server URL]`
struct ReportSubmitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "submit",
        abstract: "Send a finished report to the PetSpot server: the announcement, then its photo.",
        discussion: """
            The draft is checked first (every problem is listed, exit 65). The announcement is \
            created with an Idempotency-Key and its id and management password are written to the \
            submission journal before the photo is uploaded, so a failed or interrupted submission \
            is resumed by running the command again — never sent twice. On success the id, the \
            photo URL and the management password are printed (keep the password: it is shown \
            only once), the draft is cleared and its photo released.
            """)

    @Option(help: "The report: missing or found (default: the only flow with a draft or an unfinished submission).")
    var flow: ReportFlow?

    @Flag(help: "Print the outcome as JSON for scripts.")
    var json = false

    @Flag(name: .shortAndLong, help: "Print each attempt, retry and the real cause of a failure.")
    var verbose = false

    @Flag(name: .customLong("without-photo"), help: "Send a missing-pet report whose photo is gone from the cache without a photo.")
    var withoutPhoto = false

    @OptionGroup(title: "Server")
    var server: ServerOptions

    @OptionGroup(title: "Drafts")
    var state: StateOptions

    @OptionGroup(title: "Photo cache")
    var cache: CacheOptions

    func run() async throws {
        let store = state.store()
        let journal = SubmissionJournal.inStateFolder(state.location().root.path)
        let flow = try chooseFlow(store: store, journal: journal)
        // The draft's lock, from before the draft is read until it is cleared: with the wizard's
        // questions open elsewhere nothing is sent (exit 75), as its next save would bring a sent
        // draft back; meanwhile other commands and wizards are refused, naming this process.
        let lock = try DraftFailure.run { () throws(DraftStoreError) in try store.acquireLock(flow, for: .submission) }
        defer { lock.release() }
        let unfinished = try SubmissionFailure.run(json: json) { () throws(SubmissionError) in try journal.unfinished(flow: flow.rawValue) }

        let request: CreateAnnouncementRequest, photo: PhotoReference?
        let configuration: ClientConfiguration
        if var unfinished {
            // The photo the user attached since (a smaller one, after a refusal) is the one to send.
            if unfinished.state == .uploadingPhoto, let current = currentDraftPhoto(flow), current.cacheKey != unfinished.photo?.cacheKey {
                unfinished.photo = current
                try SubmissionFailure.run(json: json) { () throws(SubmissionError) in try journal.save(unfinished) }
                if !json { Terminal.error("Uploading the draft's current photo (\(SubmissionError.bytesText(current.byteCount))) instead of the one attached when the report was first sent.") }
            }
            (request, photo) = (unfinished.request, unfinished.photo)
            if !json {
                Terminal.error("Resuming the \(flow.reportName) started \(Self.ago(unfinished.createdAt)) "
                    + (unfinished.announcementID.map { "(announcement \($0) exists; uploading its photo)" } ?? "(creating its announcement)") + ".")
            }
            configuration = try server.configuration(server: try resumeServer(unfinished))
        } else {
            (request, photo) = try finishedDraft(flow)
            configuration = try server.configuration()
        }

        let client = PetSpotAPIClient(configuration: configuration)
        if let unfinished, unfinished.state == .uploadingPhoto {
            try await sendDraftChanges(unfinished, client: client, journal: journal, flow: flow)
        }
        let submitter = Submitter(client: client, journal: journal)
        let record = try await SubmissionRun.perform(client: client, verbose: verbose, json: json,
                                                     pending: { (try? journal.unfinished(flow: flow.rawValue)) ?? nil }) { (events) throws(SubmissionError) in
            try await submitter.submit(flow: flow.rawValue, request: request, photo: photo, events: events)
        }
        // What the found draft keeps for the finder alone, read before the draft is cleared.
        let keptLocally = flow == .found ? ((try? store.load(FoundReportDraft.self)) ?? nil).map { DraftText.keptLocally($0.draft) } ?? [] : []
        let cleared = SubmittedDraft.clear(flow, submitted: record, store: store, cache: cache)
        printOutcome(record, draftCleared: cleared, keptLocally: keptLocally)
    }

    /// A draft edited after its announcement was created: the changed fields go to the
    /// announcement as a conditional change (`If-Match` the version just read), and the journal
    /// keeps the request as it now stands, so nothing is claimed sent that was not.
    private func sendDraftChanges(_ record: SubmissionRecord, client: PetSpotAPIClient, journal: SubmissionJournal,
                                  flow: ReportFlow) async throws {
        // The journal's record as it is now (a photo switch may have been saved since it was read).
        let record = (try? journal.record(id: record.id)).flatMap { $0 } ?? record
        guard let credentials = record.credentials,
              let draft = SubmittedDraft.current(flow, store: state.store(), cache: cache), let now = draft.request else { return }
        let patch = AnnouncementPatchRequest.changes(from: record.request, to: now)
        guard !patch.isEmpty else { return }
        var updated = record
        _ = try await SubmissionRun.perform(client: client, verbose: verbose, json: json, keepOpen: true) { (_) throws(SubmissionError) in
            let current = try await client.announcement(credentials)
            _ = try await client.update(patch, credentials: credentials, ifMatch: current.etag)
            updated.request = now
            try journal.save(updated)
            return updated
        }
        if !json {
            Terminal.error("Sent the draft's changes to announcement \(credentials.id): \(patch.fields.keys.sorted().joined(separator: ", ")).")
        }
    }

    /// Where an unfinished submission goes on: the server this run names when nothing was
    /// confirmed on the one it was sent to; that first server when it may hold the announcement
    /// (asked again with the same key before anything else); never another server once the
    /// announcement exists: a `--server` naming another is refused (exit 64, naming the server,
    /// the id and what to do); a `PETSPOT_SERVER` naming another is passed over, saying so.
    private func resumeServer(_ record: SubmissionRecord) throws -> String {
        guard let chosen = try server.chosenServer(), chosen != record.server else { return record.server }
        if record.canMoveToAnotherServer {
            if !json { Terminal.error("The report was being sent to \(record.server); nothing was confirmed there; sending it to \(chosen).") }
            return chosen
        }
        if let id = record.announcementID, server.server == nil {
            if !json { Terminal.error("The announcement \(id) exists on \(record.server): its photo goes there, not to \(chosen) (PETSPOT_SERVER).") }
            return record.server
        }
        if let id = record.announcementID {
            Terminal.error("error: the announcement \(id) already exists on \(record.server), so this report cannot be sent to \(chosen). "
                + "Finish it there with `petspot report submit --flow \(record.flow)` (without --server or PETSPOT_SERVER, or with --server \(record.server)), "
                + "or stop with `petspot submissions abandon \(id)` (the announcement stays on \(record.server); its id and password are printed).")
            throw ExitStatus.usage.exitCode
        }
        if !json {
            Terminal.error("The report was being sent to \(record.server), which may have received it (its answer was lost): asking \(record.server) "
                + "again with the same Idempotency-Key before anything else; it is not sent to \(chosen).")
        }
        return record.server
    }

    /// The flag's flow, else the only flow with an unfinished submission or a saved draft.
    private func chooseFlow(store: DraftStore, journal: SubmissionJournal) throws -> ReportFlow {
        if let flow { return flow }
        let candidates = ReportFlow.allCases.filter { flow in
            ((try? journal.unfinished(flow: flow.rawValue)) ?? nil) != nil
                || FileManager.default.fileExists(atPath: store.url(for: flow).path)
        }
        guard candidates.count == 1 else {
            throw ValidationError(candidates.isEmpty
                ? "There is no report draft to submit; fill one in with `petspot report missing` or `petspot report found`."
                : "Both reports have drafts; say which to submit with --flow missing or --flow found.")
        }
        return candidates[0]
    }

    /// The photo attached to the flow's draft now, when there is a draft with one.
    private func currentDraftPhoto(_ flow: ReportFlow) -> PhotoReference? {
        guard let photo = SubmittedDraft.current(flow, store: state.store(), cache: cache)?.photo,
              FileManager.default.isReadableFile(atPath: photo.path) else { return nil }
        return photo
    }

    /// The draft's request and photo, or exit 65 listing every problem.
    private func finishedDraft(_ flow: ReportFlow) throws -> (CreateAnnouncementRequest, PhotoReference?) {
        switch flow {
        case .missing: try finished(MissingReportDraft.self)
        case .found: try finished(FoundReportDraft.self)
        }
    }

    private func finished<Draft: EditableDraft>(_ type: Draft.Type) throws -> (CreateAnnouncementRequest, PhotoReference?) {
        let (draft, saved) = try DraftLoading.load(Draft.self, store: state.store(), cache: cache)
        let today = LocalDate.today()
        let lost = DraftLoading.lostPhoto(draft, saved: saved, allowMissing: withoutPhoto)
        let issues = (lost.map { [$0] } ?? []) + draft.validate(today: today).filter { lost == nil || $0.field != .photo }
        guard saved != nil, issues.isEmpty, let request = try? draft.makeRequest(today: today) else {
            if json {
                Terminal.out(JSONOutput.string(["problems": issues]))
            } else {
                for issue in issues { Terminal.out(DraftText.line(for: issue)) }
            }
            Terminal.error("error: the \(Draft.flow.reportName) cannot be submitted: "
                + (saved == nil ? "no draft was saved" : "\(issues.count) problem\(issues.count == 1 ? "" : "s")")
                + "; fill it in with `petspot report \(Draft.flow.rawValue)` (`petspot report validate --flow \(Draft.flow.rawValue)` lists what is missing).")
            throw ExitStatus.dataError.exitCode
        }
        return (request, draft.photo)
    }

    private func printOutcome(_ record: SubmissionRecord, draftCleared: Bool, keptLocally: [String]) {
        if json {
            Terminal.out(JSONOutput.string(SubmittedRecord(record, draftCleared: draftCleared)))
            return
        }
        Terminal.out("Submitted the \(record.flow)-pet report.")
        Terminal.out("  id:                  \(record.announcementID?.rawValue ?? "—")")
        if let page = record.pageURL { Terminal.out("  page:                \(page)") }
        Terminal.out("  photo:               \(record.photoURL ?? "none")")
        Terminal.out("  management password: \(record.managementPassword ?? "—")")
        Terminal.out("Keep this password: with the id it is the only way to change the announcement, and it is not shown again.")
        if let sentence = DraftText.localOnlySentence(keptLocally) { Terminal.out(sentence) }
        if !draftCleared { Terminal.out("The current draft differs from what was submitted, so it was kept.") }
    }

    private static func ago(_ date: Date) -> String {
        let seconds = Int(Date().timeIntervalSince(date))
        return seconds < 120 ? "\(seconds) s ago" : seconds < 7200 ? "\(seconds / 60) min ago" : "\(seconds / 3600) h ago"
    }
}

/// `report submit --json`: the outcome, the password included (printed once, for the script
/// that asked).
struct SubmittedRecord: Encodable {
    var submission: String
    var flow: String
    var id: String?
    var photoUrl: String?
    var pageUrl: String?
    var managementPassword: String?
    var draftCleared: Bool

    init(_ record: SubmissionRecord, draftCleared: Bool) {
        submission = record.id
        flow = record.flow
        id = record.announcementID?.rawValue
        photoUrl = record.photoURL
        pageUrl = record.pageURL
        managementPassword = record.managementPassword
        self.draftCleared = draftCleared
    }
}

extension SubmissionJournal {
    /// The journal in `submissions/` of the state folder.
    static func inStateFolder(_ root: String) -> SubmissionJournal {
        SubmissionJournal(directory: root + "/submissions")
    }
}

extension ReportSubmitCommand: ExitCodesListed {
    static var exitCodes: [ExitStatus] { ExitStatus.reportCodes }
}
