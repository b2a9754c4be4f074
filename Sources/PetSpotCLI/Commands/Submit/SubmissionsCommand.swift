import ArgumentParser
import Foundation
import PetSpot
import PetSpotClient
import PhotoCLI

/// `petspot submissions list | show ID | retry ID | abandon ID` (ID: the submission's or its announcement's)
struct SubmissionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "submissions",
        abstract: "The submission journal: reports sent, and those waiting to be resumed.",
        subcommands: [SubmissionsListCommand.self, SubmissionsShowCommand.self, SubmissionsRetryCommand.self,
                      SubmissionsAbandonCommand.self])
}

/// What `submissions list/show` print for scripts: everything but the management password,
/// which stays in the journal file (mode 0600).
struct SubmissionSummary: Encodable {
    var submission: String
    var flow: String
    /// The journal's state name, for scripts (`creating`, `uploadingPhoto`, …).
    var state: String
    var server: String
    var id: String?
    var photoUrl: String?
    var createdAt: Date
    var updatedAt: Date
    var lastError: String?
    var journalFile: String

    init(_ record: SubmissionRecord, journal: SubmissionJournal) {
        submission = record.id
        flow = record.flow
        state = record.state.rawValue
        server = record.server
        id = record.announcementID?.rawValue
        photoUrl = record.photoURL
        createdAt = record.createdAt
        updatedAt = record.updatedAt
        lastError = record.lastError
        journalFile = journal.directory + "/\(record.id).json"
    }

    var line: String {
        let when = createdAt.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: false))
        return "\(submission)  \(flow.padding(toLength: 7, withPad: " ", startingAt: 0))  \((SubmissionRecord.State(rawValue: state)?.words ?? state).padding(toLength: 14, withPad: " ", startingAt: 0))  \(when)  \(id ?? "—")"
    }
}

struct SubmissionsListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Every submission, newest first.")

    @Flag(help: "Print JSON for scripts.")
    var json = false

    @OptionGroup(title: "Drafts")
    var state: StateOptions

    func run() async throws {
        let journal = SubmissionJournal.inStateFolder(state.location().root.path)
        let records = try SubmissionFailure.run(json: json) { () throws(SubmissionError) in try journal.all() }
        let summaries = records.map { SubmissionSummary($0, journal: journal) }
        if json {
            Terminal.out(JSONOutput.string(summaries))
        } else if summaries.isEmpty {
            Terminal.out("No report was submitted yet.")
        } else {
            Terminal.out("SUBMISSION                            FLOW     STATE           CREATED               ANNOUNCEMENT")
            for summary in summaries { Terminal.out(summary.line) }
        }
    }
}

struct SubmissionsShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "One submission: where it is, its id and photo URL, its last error.")

    @Argument(help: "The submission's id (from `submissions list`) or its announcement's id.")
    var submission: String

    @Flag(help: "Print JSON for scripts.")
    var json = false

    @OptionGroup(title: "Drafts")
    var state: StateOptions

    func run() async throws {
        let journal = SubmissionJournal.inStateFolder(state.location().root.path)
        let record = try SubmissionRun.record(submission, in: journal, json: json)
        let summary = SubmissionSummary(record, journal: journal)
        if json {
            Terminal.out(JSONOutput.string(summary))
            return
        }
        Terminal.out("Submission \(summary.submission) (\(summary.flow)-pet report) to \(summary.server)")
        Terminal.out("  state:        \(record.state.sentence)")
        Terminal.out("  announcement: \(summary.id ?? "not created yet")")
        Terminal.out("  photo:        \(summary.photoUrl ?? (record.photo == nil ? "none" : "not uploaded yet"))")
        if let error = summary.lastError { Terminal.out("  last error:   \(error)") }
        Terminal.out("  journal:      \(summary.journalFile) (holds the management password)")
        if record.state.isPending {
            Terminal.out("Resume it with `petspot submissions retry \(record.id)`, or end it with `petspot submissions abandon \(record.id)`.")
        }
    }
}

struct SubmissionsRetryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retry", abstract: "Resume an unfinished submission where it stopped (never sends it twice).")

    @Argument(help: "The submission's id (from `submissions list`) or its announcement's id.")
    var submission: String

    @Flag(help: "Print the outcome as JSON for scripts.")
    var json = false

    @Flag(name: .shortAndLong, help: "Print each attempt, retry and the real cause of a failure.")
    var verbose = false

    @OptionGroup(title: "Server")
    var server: ServerOptions

    @OptionGroup(title: "Drafts")
    var state: StateOptions

    func run() async throws {
        let journal = SubmissionJournal.inStateFolder(state.location().root.path)
        let record = try SubmissionRun.record(submission, in: journal, json: json)
        guard record.state.isPending else {
            Terminal.out("Submission \(record.id) is already \(record.state == .completed ? "complete" : "abandoned"): \(record.announcementID?.rawValue ?? "no announcement")")
            return
        }
        let client = PetSpotAPIClient(configuration: try server.configuration(server: record.server))
        let submitter = Submitter(client: client, journal: journal)
        let done = try await SubmissionRun.perform(client: client, verbose: verbose, json: json,
                                                   pending: { (try? journal.record(id: record.id)) ?? nil }) { (events) throws(SubmissionError) in
            try await submitter.resume(record, events: events)
        }
        if json {
            Terminal.out(JSONOutput.string(SubmittedRecord(done, draftCleared: false)))
        } else {
            Terminal.out("Submitted: \(done.announcementID?.rawValue ?? "—"), photo \(done.photoURL ?? "none").")
            Terminal.out("management password: \(done.managementPassword ?? "—") (keep it; it is not shown again)")
        }
    }
}

/// `petspot submissions abandon ID`: the way out of a submission that cannot finish (a photo the
/// server will not take): it is never resumed again, its record stays, and the announcement's id
/// and management password are printed so the owner can still manage it.
struct SubmissionsAbandonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "abandon",
        abstract: "End a pending submission: keep its record, print its announcement's id and management password.")

    @Argument(help: "The submission's id (from `submissions list`) or its announcement's id.")
    var submission: String

    @Flag(help: "Print the outcome as JSON for scripts (with the management password).")
    var json = false

    @OptionGroup(title: "Drafts")
    var state: StateOptions

    @OptionGroup(title: "Photo cache")
    var cache: CacheOptions

    func run() async throws {
        let journal = SubmissionJournal.inStateFolder(state.location().root.path)
        var record = try SubmissionRun.record(submission, in: journal, json: json)
        guard record.state.isPending else {
            Terminal.error("error: submission \(record.id) is \(record.state == .completed ? "complete" : "abandoned already"); nothing to end.")
            throw ExitStatus.dataError.exitCode
        }
        record.state = .abandoned
        record.lastError = (record.lastError.map { $0 + " " } ?? "") + "Abandoned by the user."
        try SubmissionFailure.run(json: json) { () throws(SubmissionError) in try journal.save(record) }
        // The draft it sent goes too once its announcement exists (submitting it again would make
        // a second one), under the draft's lock; with the wizard or a submission holding it, the
        // draft is left and the user told why. A draft whose announcement was never created is
        // kept: it is the only copy of the report.
        var cleared = false
        if record.announcementID != nil, let flow = ReportFlow(rawValue: record.flow) {
            let store = state.store()
            do {
                let lock = try store.acquireLock(flow, for: .command)
                defer { lock.release() }
                cleared = SubmittedDraft.clear(flow, submitted: record, store: store, cache: cache)
            } catch {
                Terminal.error("The draft was not cleared: \(error.description) Remove it afterwards with `petspot report discard --flow \(flow.rawValue)`.")
            }
        }
        if json {
            Terminal.out(JSONOutput.string(SubmittedRecord(record, draftCleared: cleared)))
            return
        }
        if cleared { Terminal.out("The \(record.flow)-pet draft it was sent from was cleared.") }
        guard let id = record.announcementID else {
            Terminal.out("Ended submission \(record.id). Its announcement was never confirmed by \(record.server), so there is nothing to manage.")
            Terminal.out("The \(record.flow)-pet draft was kept: send it with `petspot report submit --flow \(record.flow) --server URL`.")
            if record.createMayHaveArrived != false {
                Terminal.out("\(record.server) may have received it before its answer was lost: check `petspot pet list --server \(record.server)` before sending it there again.")
            }
            return
        }
        Terminal.out("Ended submission \(record.id); it will not be resumed. The announcement stays on the server without a photo.")
        Terminal.out("  id:                  \(id)")
        Terminal.out("  management password: \(record.managementPassword ?? "—")")
        Terminal.out("Keep this password: with the id it is the only way to change the announcement.")
    }
}

extension SubmissionsCommand: ExitCodesListed {
    static var exitCodes: [ExitStatus] { [.ok, .usage, .noInput, .cannotCreate, .ioError] }
}

extension SubmissionRecord.State {
    /// A few words for the list (never the journal's code name).
    var words: String {
        switch self {
        case .creating: "not created"
        case .uploadingPhoto: "photo pending"
        case .completed: "posted"
        case .abandoned: "abandoned"
        }
    }

    /// Where the submission is, for `submissions show` and a stopped `report submit`.
    var sentence: String {
        switch self {
        case .creating: "not created yet (or its answer was lost): sending it again asks the server with the same key"
        case .uploadingPhoto: "the announcement is posted; its photo is not uploaded yet"
        case .completed: "posted, with its photo"
        case .abandoned: "abandoned: kept for its id and password, never sent again"
        }
    }
}
