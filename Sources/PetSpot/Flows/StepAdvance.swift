/// What happened when a flow was asked to move on.
public enum StepAdvance<Step: ReportStep>: Hashable, Sendable {
    /// The current step was valid; the flow now shows `to`.
    case moved(to: Step)
    /// The last step was reached and the whole draft is valid: it can be submitted.
    case readyToSubmit
    /// The flow stayed where it was because of these problems.
    case blocked([ValidationIssue])

    /// The problems that blocked the flow; empty when it moved on.
    public var issues: [ValidationIssue] {
        if case .blocked(let issues) = self { issues } else { [] }
    }
}
