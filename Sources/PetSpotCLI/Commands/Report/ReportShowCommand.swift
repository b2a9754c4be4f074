import ArgumentParser
import PetSpot
import PhotoCLI

/// `petspot report show [--flow missing|found] [--json]`
struct ReportShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show a report draft: its fields, the step it is on, and what is still missing.")

    @Option(help: "The report: missing or found (default: the only one with a draft).")
    var flow: ReportFlow?

    @Flag(help: "Print JSON for scripts: the draft, its steps and every problem.")
    var json = false

    @OptionGroup(title: "Drafts")
    var state: StateOptions

    @OptionGroup(title: "Photo cache")
    var cache: CacheOptions

    func run() async throws {
        let flow = try ReportFlowChoice.resolve(self.flow, store: state.store(), command: "show")
        switch flow {
        case .missing: try show(MissingReportDraft.self)
        case .found: try show(FoundReportDraft.self)
        }
    }

    private func show<Draft: EditableDraft>(_ type: Draft.Type) throws {
        let store = state.store()
        let (draft, saved) = try DraftLoading.load(Draft.self, store: store, cache: cache)
        let today = LocalDate.today()
        let url = store.url(for: Draft.flow)
        if json {
            Terminal.out(JSONOutput.string(DraftRecord(draft, saved: saved, path: url, today: today)))
            return
        }
        guard let saved else {
            Terminal.out("No \(Draft.flow.reportName) draft yet (it would be kept in \(url.path)). "
                + "Start one with `petspot report \(Draft.flow.rawValue)`.")
            return
        }
        Terminal.out("The \(Draft.flow.reportName) draft, saved \(TimestampText.local(saved.savedAt)) in \(url.path), "
            + "is on \(draft.step.progressLabel).\n")
        Terminal.out(DraftText.summary(draft) + "\n")
        Terminal.out(DraftText.steps(draft, today: today))
        Terminal.out(DraftText.verdict(draft, today: today))
    }
}
