import ArgumentParser
import PetSpot
import PhotoCLI

/// `petspot report validate [--flow missing|found] [--json]`
struct ReportValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a report draft against every rule; exit 65 listing every problem.",
        discussion: """
            Every problem of every step is listed on stdout with the field it is about and the flag \
            that fills it in; --json prints them as [{"field", "message"}] (an empty array when the \
            draft is complete). A flow with no draft is checked as an empty one.
            """)

    @Option(help: "The report: missing or found (default: the only one with a draft).")
    var flow: ReportFlow?

    @Flag(help: "Print the problems as a JSON array for scripts.")
    var json = false

    @OptionGroup(title: "Drafts")
    var state: StateOptions

    @OptionGroup(title: "Photo cache")
    var cache: CacheOptions

    func run() async throws {
        let flow = try ReportFlowChoice.resolve(self.flow, store: state.store(), command: "validate")
        switch flow {
        case .missing: try check(MissingReportDraft.self)
        case .found: try check(FoundReportDraft.self)
        }
    }

    private func check<Draft: EditableDraft>(_ type: Draft.Type) throws {
        let (draft, saved) = try DraftLoading.load(Draft.self, store: state.store(), cache: cache)
        let today = LocalDate.today()
        let lost = DraftLoading.lostPhoto(draft, saved: saved)
        // A lost photo is one problem, said once (the found flow's "photo is mandatory" says less).
        let issues = (lost.map { [$0] } ?? []) + draft.validate(today: today).filter { lost == nil || $0.field != .photo }
        if json {
            Terminal.out(JSONOutput.string(issues))
        } else if issues.isEmpty {
            Terminal.out("The \(Draft.flow.reportName) draft is complete: every step is valid. " + DraftText.notSubmittableYet(Draft.flow))
        } else {
            if let lost { Terminal.out("  \(DraftText.line(for: lost))") }
            for step in Draft.Step.allCases {
                let problems = draft.validate(step: step, today: today).filter { lost == nil || $0.field != .photo }
                guard !problems.isEmpty else { continue }
                Terminal.out(step.progressLabel)
                for issue in problems { Terminal.out("  \(DraftText.line(for: issue))") }
            }
        }
        guard !issues.isEmpty else { return }
        let count = issues.count
        Terminal.error("error: the \(Draft.flow.reportName) draft has \(count) problem\(count == 1 ? "" : "s")"
            + (saved == nil ? " (no draft was saved yet)" : "")
            + "; fill in the fields with `petspot report \(Draft.flow.rawValue)` and the flags shown.")
        throw ExitStatus.dataError.exitCode
    }
}
