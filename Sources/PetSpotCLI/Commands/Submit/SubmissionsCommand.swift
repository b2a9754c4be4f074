import ArgumentParser
import Foundation
import PetSpotClient

/// `petspot submissions list | show ID | retry ID`
struct SubmissionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "submissions",
        abstract: "The submission journal: reports sent, and those waiting to be resumed.",
        subcommands: [SubmissionsListCommand.self, SubmissionsShowCommand.self, SubmissionsRetryCommand.self])
}

/// What `submissions list/show` print for scripts: everything but the management password,
/// which stays in the journal file (mode 0600).
struct SubmissionSummary: Encodable {
    var submission: String
    var flow: String
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
        return "\(submission)  \(flow.padding(toLength: 7, withPad: " ", startingAt: 0))  \(state.padding(toLength: 14, withPad: " ", startingAt: 0))  \(when)  \(id ?? "—")"
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

    @Argument(help: "The submission's id (from `submissions list`).")
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
        Terminal.out("  state:        \(summary.state)")
        Terminal.out("  announcement: \(summary.id ?? "not created yet")")
        Terminal.out("  photo:        \(summary.photoUrl ?? (record.photo == nil ? "none" : "not uploaded yet"))")
        if let error = summary.lastError { Terminal.out("  last error:   \(error)") }
        Terminal.out("  journal:      \(summary.journalFile) (holds the management password)")
        if record.state != .completed { Terminal.out("Resume it with `petspot submissions retry \(record.id)`.") }
    }
}

struct SubmissionsRetryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retry", abstract: "Resume an unfinished submission where it stopped (never sends it twice).")

    @Argument(help: "The submission's id (from `submissions list`).")
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
        guard record.state != .completed else {
            Terminal.out("Submission \(record.id) is already complete: \(record.announcementID?.rawValue ?? "")")
            return
        }
        let client = PetSpotAPIClient(configuration: try server.configuration(server: record.server))
        let submitter = Submitter(client: client, journal: journal)
        let done = try await SubmissionRun.perform(client: client, verbose: verbose, json: json) { (events) throws(SubmissionError) in
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
