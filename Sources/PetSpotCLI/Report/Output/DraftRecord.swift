import Foundation
import PetSpot

/// `report show --json`: the draft, where it is kept, and what is still wrong with it.
///
/// Keys are snake_case (the draft's own fields too, e.g. `last_seen_date`); `issues` items are
/// `{"field", "message"}`, `field` being the domain's field name (e.g. `lastSeenDate`).
struct DraftRecord<Draft: EditableDraft>: Encodable {
    /// One step's state.
    struct StepRecord: Encodable {
        var number: Int
        var title: String
        var complete: Bool
        var issues: [ValidationIssue]
    }

    var flow: String
    var path: String
    /// Whether a draft was saved; when `false`, `draft` is an empty one.
    var saved: Bool
    var savedAt: String?
    /// The step the draft is on.
    var step: Int
    /// Whether every step is valid.
    var complete: Bool
    var steps: [StepRecord]
    var issues: [ValidationIssue]
    var draft: Draft

    init(_ draft: Draft, saved: SavedDraft<Draft>?, path: URL, today: LocalDate) {
        flow = Draft.flow.rawValue
        self.path = path.path
        self.saved = saved != nil
        savedAt = saved.map { TimestampText.iso8601($0.savedAt) }
        step = draft.step.number
        steps = Draft.Step.allCases.map { step in
            let issues = draft.validate(step: step, today: today)
            return StepRecord(number: step.number, title: step.title, complete: issues.isEmpty, issues: issues)
        }
        issues = draft.validate(today: today)
        complete = issues.isEmpty
        self.draft = draft
    }
}
