import Foundation

/// A report being filled in step by step: what the missing and found flows share.
///
/// Navigation validates only the step being left, so a person sees the problems of the step
/// in front of them; ``makeRequest(today:)`` validates every step.
public protocol ReportDraft: Codable, Hashable, Sendable {
    /// The flow's steps.
    associatedtype Step: ReportStep

    /// The step the person is on. Setting it jumps there without validating.
    var step: Step { get set }

    /// The problems of one step, each tied to its field; empty when the step is valid.
    /// - Parameters:
    ///   - step: The step to check.
    ///   - today: Today in the reporter's time zone, for the "not in the future" rule.
    func validate(step: Step, today: LocalDate) -> [ValidationIssue]

    /// The request for a draft whose steps are all valid.
    /// - Parameter today: Today in the reporter's time zone.
    /// - Throws: ``ReportDraftError/incomplete(_:)`` with every problem of every step.
    func makeRequest(today: LocalDate) throws(ReportDraftError) -> CreateAnnouncementRequest
}

extension ReportDraft {
    /// The problems of every step, in step order.
    public func validate(today: LocalDate = .today()) -> [ValidationIssue] {
        Step.allCases.flatMap { validate(step: $0, today: today) }
    }

    /// Whether the current step is valid, so ``advance(today:)`` would move on.
    public func canAdvance(today: LocalDate = .today()) -> Bool {
        validate(step: step, today: today).isEmpty
    }

    /// Moves to the next step if the current one is valid.
    ///
    /// On the last step nothing moves: the result says whether the whole draft is ready
    /// (``StepAdvance/readyToSubmit``) or lists the problems of every step that is not.
    /// - Parameter today: Today in the reporter's time zone.
    /// - Returns: Where the flow went, or the problems that kept it in place.
    @discardableResult
    public mutating func advance(today: LocalDate = .today()) -> StepAdvance<Step> {
        let issues = validate(step: step, today: today)
        guard issues.isEmpty else { return .blocked(issues) }
        guard let next = step.next else {
            let all = validate(today: today)
            return all.isEmpty ? .readyToSubmit : .blocked(all)
        }
        step = next
        return .moved(to: next)
    }

    /// Moves to the previous step, without validating.
    /// - Returns: `false` (and stays) on the first step.
    @discardableResult
    public mutating func goBack() -> Bool {
        guard let previous = step.previous else { return false }
        step = previous
        return true
    }

    /// The request for a draft whose steps are all valid, with "today" read in the
    /// reporter's time zone.
    /// - Parameters:
    ///   - today: The current instant.
    ///   - timeZone: The reporter's time zone, which decides the calendar day.
    /// - Throws: ``ReportDraftError/incomplete(_:)`` with every problem of every step.
    public func makeRequest(
        today: Date = Date(), timeZone: TimeZone = .current
    ) throws(ReportDraftError) -> CreateAnnouncementRequest {
        try makeRequest(today: LocalDate.today(in: timeZone, now: today))
    }
}
