import PetSpot

/// A report draft that belongs to one flow, so a store knows which file holds it.
public protocol FlowDraft: ReportDraft {
    /// The flow this kind of draft is filled in for.
    static var flow: ReportFlow { get }
    /// An empty draft on the flow's first step.
    init()
}

extension MissingReportDraft: FlowDraft {
    /// The missing flow.
    public static var flow: ReportFlow { .missing }

    /// An empty draft on the chip number step.
    public init() { self.init(step: .chipNumber) }
}

extension FoundReportDraft: FlowDraft {
    /// The found flow.
    public static var flow: ReportFlow { .found }

    /// An empty draft on the photo step.
    public init() { self.init(step: .photo) }
}
